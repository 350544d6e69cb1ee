// Link conditions: a bad network between one virtual charger and its central system, on purpose
// (docs/faults.md). Latency and jitter per direction, lost, duplicated and reordered frames, answers
// withheld, a half-open socket. The link (charger-link.ts) hands every frame it writes and every
// frame it receives to the charger's LinkFaults when it has one, and to the wire directly when it
// has none: a charger without conditions pays one null check per frame and nothing else.
//
// Reproducible: each direction has its own seeded PRNG (mulberry32), seeded from the conditions'
// seed and the charger's identity, and every frame draws the same five numbers whatever is set, so
// the n-th frame a charger writes (or receives) meets the same fate for the same seed, however the
// frames are spaced in time and however the two directions interleave.
import type { FrameObserver } from '../../protocols/ocpp/index.ts';

/** A value per direction: `to_csms` is what the charger writes, `from_csms` what it receives. */
export interface PerDirection {
  to_csms: number;
  from_csms: number;
}

/** The conditions in force on one charger's link, every field filled in (the API's answer). */
export interface LinkConditions {
  latency_ms: PerDirection;
  jitter_ms: PerDirection;
  /** Probability that a frame is lost. */
  drop: PerDirection;
  /** Probability that a frame is sent twice. */
  duplicate: PerDirection;
  /** Frames may overtake each other within this window (0: they never do, as on TCP). */
  reorder_window_ms: number;
  /** Probability that an answer (CALLRESULT / CALLERROR, either direction) is withheld. */
  unanswered: number;
  /** The current connection (or the next one) carries nothing until the charger's pings give up on it. */
  half_open: boolean;
  seed: number;
}

/** What a message-log item says was done to its frame (`"injected": "<kind>"`). */
export type InjectedKind =
  | 'drop'
  | 'duplicate'
  | 'reorder'
  | 'unanswered'
  | 'half_open'
  // misbehaviours on purpose
  | 'raw_text'
  | 'edited'
  | 'wrong_message_id';

/**
 * A charger misbehaving on purpose, once (negative tests of a central system): `raw_text` is written
 * on the socket now, exactly as given (invalid JSON, a CALL that breaks its schema, an answer to a
 * CALL never made); `edit_next_call` replaces fields of the payload of the next CALL of `action` the
 * charger writes (null removes one); `wrong_message_id` sends the charger's next answer with another
 * message id (default: its own with `-wrong` appended).
 */
export type Misbehaviour =
  | { kind: 'raw_text'; text: string }
  | { kind: 'edit_next_call'; action: string; payload: Record<string, unknown> }
  | { kind: 'wrong_message_id'; message_id?: string };

/** No fault: the conditions of a charger that only misbehaves on purpose. */
export const NO_CONDITIONS: LinkConditions = {
  latency_ms: { to_csms: 0, from_csms: 0 },
  jitter_ms: { to_csms: 0, from_csms: 0 },
  drop: { to_csms: 0, from_csms: 0 },
  duplicate: { to_csms: 0, from_csms: 0 },
  reorder_window_ms: 0,
  unanswered: 0,
  half_open: false,
  seed: 0,
};

/** What the faults need of one connection of the link. */
export interface FaultyWire {
  /** Writes a frame on the socket (throws when it is not open). */
  write(text: string): void;
  /** Hands a received frame to the RPC endpoint. */
  deliver(text: string): void;
  /** The socket stops (or starts again) answering pings and counting what arrives as a sign of life. */
  setHalfOpen(on: boolean): void;
}

/** libuv's timers count whole milliseconds from the loop's cached time. */
const TIMER_RESOLUTION_MS = 1;

const OUT = 0;
const IN = 1;
type Direction = typeof OUT | typeof IN;
const SIDE = ['to_csms', 'from_csms'] as const;
const LOGGED = ['out', 'in'] as const;

/** mulberry32: a 32-bit state, good enough for fault injection, and the same on every platform. */
class Rng {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
}

/** A 32-bit seed of one direction of one charger: FNV-1a over the identity, mixed with the seed. */
export function directionSeed(seed: number, identity: string, direction: number): number {
  let h = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < identity.length; i++) h = Math.imul(h ^ identity.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (direction + 1), 0x01000193);
  return Math.imul(h ^ (h >>> 16), 0x45d9f3b) >>> 0;
}

interface Held {
  due: number;
  text: string;
  twice: boolean;
}

/** The head of a frame: its message type, id and (for a CALL) action, for the message log. */
function head(text: string): { type: number | null; id: string | null; action: string | null } {
  try {
    const f: unknown = JSON.parse(text);
    if (!Array.isArray(f)) return { type: null, id: null, action: null };
    const type = typeof f[0] === 'number' ? f[0] : null;
    const id = typeof f[1] === 'string' ? f[1] : null;
    const action = (type === 2 || type === 6) && typeof f[2] === 'string' ? f[2] : null;
    return { type, id, action };
  } catch {
    return { type: null, id: null, action: null };
  }
}

/** A CALLRESULT or CALLERROR (OCPP 2.1: also a CALLRESULTERROR), read from the frame's first bytes. */
const isAnswer = (text: string) => /^\s*\[\s*[345]\s*,/.test(text);

/**
 * One charger's link conditions and the state that must outlive its connections (the PRNGs). Made
 * when conditions are first set on a charger, dropped when they are cleared or the charger leaves
 * the process; attached to the connection the charger has, if any, and to each one it opens.
 */
export class LinkFaults {
  conditions: LinkConditions;
  #rng: [Rng, Rng] = [new Rng(0), new Rng(0)];
  #wire: FaultyWire | null = null;
  /** Frames waiting for their time, per direction, in delivery order. */
  readonly #held: [Held[], Held[]] = [[], []];
  readonly #timers: [ReturnType<typeof setTimeout> | undefined, ReturnType<typeof setTimeout> | undefined] = [
    undefined,
    undefined,
  ];
  /** When the last frame held in each direction is due (frames never overtake without a reorder window). */
  readonly #lastDue = [0, 0];
  /** Misbehaviours waiting for the frame they change. */
  #pending: Misbehaviour[] = [];

  constructor(
    readonly identity: string,
    conditions: LinkConditions,
    /** The message log of the charger's frames (undefined: not logged). */
    readonly onFrame: FrameObserver | undefined,
    /** Told when a half-open connection ended, so the conditions in force say half_open false. */
    readonly onChange?: (c: LinkConditions) => void,
  ) {
    this.conditions = conditions;
    this.#seed();
  }

  /** New conditions (a PUT): the fault sequence starts again from the seed. */
  update(conditions: LinkConditions): void {
    const wasHalfOpen = this.conditions.half_open;
    this.conditions = conditions;
    this.#seed();
    if (this.#wire && wasHalfOpen !== conditions.half_open) this.#wire.setHalfOpen(conditions.half_open);
  }

  /** The link opened a connection (or had one when the conditions were set). */
  attach(wire: FaultyWire): void {
    if (this.#wire && this.#wire !== wire) this.#reset();
    this.#wire = wire;
    if (this.conditions.half_open) wire.setHalfOpen(true);
  }

  /**
   * The connection ended (`lost`: frames still held went down with it) or the conditions were
   * cleared (held frames go now, in order). A half-open connection that ended was the one the
   * condition was about: the next connection is clean.
   */
  detach(wire: FaultyWire, lost: boolean): void {
    if (this.#wire !== wire) return;
    if (lost) this.#reset();
    else this.#flushAll();
    this.#wire = null;
    if (this.conditions.half_open) {
      if (!lost) wire.setHalfOpen(false);
      else {
        this.conditions = { ...this.conditions, half_open: false };
        this.onChange?.(this.conditions);
      }
    }
  }

  /** A frame the charger writes. */
  out(text: string): void {
    this.#pass(OUT, this.#pending.length > 0 ? this.#rewrite(text) : text);
  }

  /** False when it cannot be done: raw text with no open connection. */
  misbehave(m: Misbehaviour): boolean {
    if (m.kind !== 'raw_text') {
      this.#pending.push(m);
      return true;
    }
    if (!this.#wire) return false;
    try {
      this.#wire.write(m.text);
    } catch {
      return false;
    }
    this.#log(OUT, m.text, 'raw_text');
    return true;
  }

  /** The frame as the first pending misbehaviour that applies to it changes it (logged as it went). */
  #rewrite(text: string): string {
    const h = head(text);
    const i = this.#pending.findIndex((m) =>
      m.kind === 'edit_next_call' ? h.type === 2 && h.action === m.action : h.type === 3 || h.type === 4,
    );
    if (i < 0) return text;
    const [m] = this.#pending.splice(i, 1);
    const frame = JSON.parse(text) as unknown[];
    if (m.kind === 'edit_next_call') {
      const payload = { ...(frame[3] as Record<string, unknown>) };
      for (const [k, v] of Object.entries(m.payload))
        if (v === null) delete payload[k];
        else payload[k] = v;
      frame[3] = payload;
    } else if (m.kind === 'wrong_message_id') frame[1] = m.message_id ?? `${String(frame[1])}-wrong`;
    const edited = JSON.stringify(frame);
    this.#log(OUT, edited, m.kind === 'edit_next_call' ? 'edited' : 'wrong_message_id');
    return edited;
  }

  /** A frame the charger receives. */
  in(text: string): void {
    this.#pass(IN, text);
  }

  #seed(): void {
    const { seed } = this.conditions;
    this.#rng = [
      new Rng(directionSeed(seed, this.identity, OUT)),
      new Rng(directionSeed(seed, this.identity, IN)),
    ];
  }

  #pass(dir: Direction, text: string): void {
    const c = this.conditions;
    if (c.half_open) return this.#log(dir, text, 'half_open');
    const rng = this.#rng[dir];
    // Always five draws per frame, in this order: the fate of the n-th frame depends on n only.
    const uDrop = rng.next();
    const uDuplicate = rng.next();
    const uUnanswered = rng.next();
    const uJitter = rng.next();
    const uReorder = rng.next();
    const side = SIDE[dir];
    if (uDrop < c.drop[side]) return this.#log(dir, text, 'drop');
    if (uUnanswered < c.unanswered && isAnswer(text)) return this.#log(dir, text, 'unanswered');
    const twice = uDuplicate < c.duplicate[side];
    const delay = Math.max(0, c.latency_ms[side] + c.jitter_ms[side] * (2 * uJitter - 1));
    const held = this.#held[dir];
    if (delay === 0 && held.length === 0 && c.reorder_window_ms === 0) return this.#send(dir, text, twice);
    const now = performance.now();
    let due = now + delay;
    if (c.reorder_window_ms > 0) {
      due += c.reorder_window_ms * uReorder;
      if (due < this.#lastDue[dir]) this.#log(dir, text, 'reorder');
    } else due = Math.max(due, this.#lastDue[dir]);
    this.#lastDue[dir] = Math.max(this.#lastDue[dir], due);
    // Sorted by due time; equal times keep their order.
    let i = held.length;
    while (i > 0 && held[i - 1].due > due) i--;
    held.splice(i, 0, { due, text, twice });
    if (i === 0) this.#arm(dir, now);
  }

  #send(dir: Direction, text: string, twice: boolean): void {
    const wire = this.#wire;
    if (!wire) return;
    if (dir === OUT) wire.write(text);
    else wire.deliver(text);
    if (!twice) return;
    this.#log(dir, text, 'duplicate');
    if (dir === OUT) wire.write(text);
    else wire.deliver(text);
  }

  #arm(dir: Direction, now: number): void {
    clearTimeout(this.#timers[dir]);
    const first = this.#held[dir][0];
    this.#timers[dir] = first
      ? setTimeout(dir === OUT ? this.#dueOut : this.#dueIn, Math.max(0, first.due - now))
      : undefined;
  }

  readonly #dueOut = () => this.#due(OUT);
  readonly #dueIn = () => this.#due(IN);

  #due(dir: Direction): void {
    this.#timers[dir] = undefined;
    const held = this.#held[dir];
    // Timers count from the event loop's cached time, at a millisecond's resolution, so they fire up
    // to a millisecond early: what is due within one goes now (waiting again would make it late).
    const now = performance.now() + TIMER_RESOLUTION_MS;
    while (held.length > 0 && held[0].due <= now) {
      const f = held.shift()!;
      try {
        this.#send(dir, f.text, f.twice);
      } catch {
        // The socket closed while the frame was held: it went down with the connection.
      }
    }
    this.#arm(dir, performance.now());
  }

  #flushAll(): void {
    for (const dir of [OUT, IN] as const) {
      clearTimeout(this.#timers[dir]);
      this.#timers[dir] = undefined;
      const held = this.#held[dir].splice(0);
      for (const f of held) {
        try {
          this.#send(dir, f.text, f.twice);
        } catch {
          // as in #due
        }
      }
    }
    this.#lastDue[OUT] = this.#lastDue[IN] = 0;
  }

  #reset(): void {
    for (const dir of [OUT, IN] as const) {
      clearTimeout(this.#timers[dir]);
      this.#timers[dir] = undefined;
      this.#held[dir].length = 0;
    }
    this.#lastDue[OUT] = this.#lastDue[IN] = 0;
  }

  #log(dir: Direction, text: string, kind: InjectedKind): void {
    if (!this.onFrame) return;
    const h = head(text);
    this.onFrame(LOGGED[dir], text, h.type, h.id, h.action, null, kind);
  }
}

/** The event the runtime sends the link actor when a charger's conditions are set or cleared. */
export const FAULTS_EVENT = 'link.faults';
export interface FaultsCommand {
  type: typeof FAULTS_EVENT;
  faults: LinkFaults | null;
}

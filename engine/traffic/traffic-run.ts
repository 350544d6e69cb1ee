// One generated-traffic run over the chargers of a location. Its events (arrivals, tokens, EVs
// full, departures, faults and their clearing, connection drops) wait in one min-heap for the
// whole location, and ONE timer is armed for the earliest: no timer per charger or connector. The
// simulated clock runs `speed` times faster than the real one; each event draws from its
// connector's (or charger's) own seeded stream, so the sessions are the same for the same seed.
import type { AnyPayload, EventType } from '../commands/command-kinds.ts';
import type { TrafficChange, TrafficConfig } from './traffic-config.ts';
import {
  exponential,
  nextArrival,
  planSession,
  streamOf,
  type PlannedSession,
  type Random,
} from './traffic-model.ts';

export interface TrafficCharger {
  key: string;
  identity: string;
  connectors: number;
  /**
   * Its place in the whole fleet, which picks its random streams (default: its place in this
   * run), so a fleet split over several runs draws the same sessions as one run over all of it.
   */
  index?: number;
}

/** Where commands go (the command bus in the service; a recorder in a unit test). */
export type SendCommand = (charger: TrafficCharger, type: EventType, payload: AnyPayload) => Promise<void>;

type Kind = 'arrive' | 'resume' | 'token' | 'full' | 'leave' | 'fault' | 'clear' | 'drop';

interface Due {
  /** Simulated seconds since midnight of day 0. */
  at: number;
  seq: number;
  charger: number;
  connector: number;
  kind: Kind;
  session?: PlannedSession;
}

export interface SessionRecord extends PlannedSession {
  charger: string;
  charger_index: number;
  connector: number;
}

export interface TrafficStatus {
  running: boolean;
  /** Simulated time of day now, `d1 08:15`. */
  sim_time: string;
  sessions_started: number;
  sessions_active: number;
  faults: number;
  drops: number;
  commands_failed: number;
}

const PURPOSE = { sessions: 1, faults: 2, drops: 3, resume: 4 } as const;
const DAY = 86_400;

/** A session on a connector: plugged once its plug-in was sent (sessions of a warm start's day before are not). */
interface Live {
  session: PlannedSession;
  plugged: boolean;
  token: boolean;
  full: boolean;
}
/** Sessions kept for reading back (the newest). */
const KEEP_SESSIONS = 1000;

export class TrafficRun {
  readonly sessions: SessionRecord[] = [];
  readonly #heap: Due[] = [];
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running = true;
  #realAnchor = Date.now();
  #simAnchor: number;
  readonly #streams = new Map<string, Random>();
  /** Sessions on connectors (`charger:connector`), plugged in or drawn before a warm start. */
  readonly #live = new Map<string, Live>();
  #plugged = 0;
  /** While a warm start draws the day before: sessions are followed, no command is sent. */
  #silent = false;
  #counts = { sessions_started: 0, faults: 0, drops: 0, commands_failed: 0 };

  constructor(
    private config: TrafficConfig,
    private readonly chargers: TrafficCharger[],
    private readonly send: SendCommand,
    private readonly now: () => number = Date.now,
  ) {
    this.#realAnchor = now();
    this.#simAnchor = config.start_hour * 3600;
    const t = this.#simAnchor;
    const from = config.warm_start ? t - DAY : t;
    chargers.forEach((c, i) => {
      for (let k = 1; k <= c.connectors; k++) this.#scheduleArrival(i, k, from);
      this.#scheduleRate(i, 'fault', t);
      this.#scheduleRate(i, 'drop', t);
    });
    if (config.warm_start) this.#warmUp(t);
    this.#arm();
  }

  get simNow(): number {
    return this.#simAnchor + ((this.now() - this.#realAnchor) / 1000) * this.config.speed;
  }

  status(): TrafficStatus {
    const t = this.simNow;
    const minutes = Math.floor(t / 60);
    const hh = String(Math.floor(minutes / 60) % 24).padStart(2, '0');
    const mm = String(minutes % 60).padStart(2, '0');
    return {
      running: this.#running,
      sim_time: `d${Math.floor(t / 86400) + 1} ${hh}:${mm}`,
      sessions_active: this.#plugged,
      ...this.#counts,
    };
  }

  /** A new speed keeps the simulated clock where it is; other fields apply to what is drawn next. */
  change(c: TrafficChange): void {
    const t = this.simNow;
    this.config = { ...this.config, ...c } as TrafficConfig;
    this.#simAnchor = t;
    this.#realAnchor = this.now();
    this.#arm();
  }

  /** Stops the wheel; the EVs still plugged in leave (their transactions end). */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    clearTimeout(this.#timer);
    const leaving = [...this.#live].flatMap(([id, live]) => {
      if (!live.plugged) return [];
      const [i, k] = id.split(':').map(Number);
      return [this.#command(i, 'unplug', { connector_id: k, evse_id: k })];
    });
    this.#live.clear();
    this.#plugged = 0;
    await Promise.all(leaving);
  }

  /**
   * Draws the simulated day before `t` without a command (only session events are in the heap
   * then); the sessions still in progress at `t` plug in at a random moment of its first minute.
   */
  #warmUp(t: number): void {
    this.#silent = true;
    this.runDue(t);
    this.#silent = false;
    for (const id of this.#live.keys()) {
      const [charger, connector] = id.split(':').map(Number);
      const rnd = this.#stream(charger, connector, PURPOSE.resume);
      this.#push({ at: t + rnd() * 60, charger, connector, kind: 'resume' });
    }
  }

  /** Runs every event due by the simulated time `until` (the timer calls it with now). */
  runDue(until = this.simNow): void {
    while (this.#heap.length > 0 && this.#heap[0].at <= until) this.#handle(pop(this.#heap)!);
  }

  #stream(charger: number, connector: number, purpose: number): Random {
    const key = `${charger}:${connector}:${purpose}`;
    let s = this.#streams.get(key);
    if (!s)
      this.#streams.set(key, (s = streamOf(this.config.seed, this.#indexOf(charger), connector, purpose)));
    return s;
  }

  #indexOf(charger: number): number {
    return this.chargers[charger].index ?? charger;
  }

  #push(d: Omit<Due, 'seq'>): void {
    push(this.#heap, { ...d, seq: this.#seq++ });
  }

  #scheduleArrival(charger: number, connector: number, after: number): void {
    const rnd = this.#stream(charger, connector, PURPOSE.sessions);
    const at = nextArrival(rnd, this.config.arrivals_per_hour, after);
    if (at !== null)
      this.#push({ at, charger, connector, kind: 'arrive', session: planSession(rnd, this.config, at) });
  }

  #scheduleRate(charger: number, kind: 'fault' | 'drop', after: number): void {
    const rate = kind === 'fault' ? this.config.fault_rate_per_hour : this.config.drop_rate_per_hour;
    if (rate <= 0) return;
    const rnd = this.#stream(charger, 0, kind === 'fault' ? PURPOSE.faults : PURPOSE.drops);
    const at = after + exponential(rnd, rate / 3600);
    const connector = 1 + Math.floor(rnd() * this.chargers[charger].connectors);
    this.#push({ at, charger, connector, kind });
  }

  #handle(d: Due): void {
    const on = { connector_id: d.connector, evse_id: d.connector };
    const id = `${d.charger}:${d.connector}`;
    const s = d.session;
    const live = this.#live.get(id);
    switch (d.kind) {
      case 'arrive': {
        const fresh: Live = { session: s!, plugged: false, token: false, full: false };
        this.#live.set(id, fresh);
        if (!this.#silent) this.#plugIn(d.charger, d.connector, fresh);
        // The driver walks up with the token half a minute later.
        this.#push({ ...d, at: d.at + 30, kind: 'token' });
        if (s!.full_after !== null) this.#push({ ...d, at: d.at + s!.full_after, kind: 'full' });
        this.#push({ ...d, at: d.at + s!.dwell, kind: 'leave' });
        return;
      }
      case 'resume':
        // A session of a warm start's day before, still there: the EV plugs in now, with what
        // already happened (token presented, EV full).
        if (!live || live.plugged) return;
        this.#plugIn(d.charger, d.connector, live);
        if (live.token) void this.#command(d.charger, 'present-token', { ...on, id_tag: live.session.token });
        if (live.full) void this.#command(d.charger, 'ev-stops-energy', on);
        return;
      case 'token':
        if (live) live.token = true;
        if (live?.plugged) void this.#command(d.charger, 'present-token', { ...on, id_tag: s!.token });
        return;
      case 'full':
        if (live) live.full = true;
        if (live?.plugged) void this.#command(d.charger, 'ev-stops-energy', on);
        return;
      case 'leave':
        this.#live.delete(id);
        if (live?.plugged) {
          this.#plugged--;
          void this.#command(d.charger, 'unplug', on);
        }
        this.#scheduleArrival(d.charger, d.connector, d.at);
        return;
      case 'fault': {
        this.#counts.faults++;
        void this.#command(d.charger, 'fault', on);
        const minutes = this.config.fault_minutes;
        const rnd = this.#stream(d.charger, 0, PURPOSE.faults);
        const lasts = Math.max(minutes.min, minutes.mean + minutes.sd * (rnd() * 2 - 1)) * 60;
        this.#push({ ...d, at: d.at + lasts, kind: 'clear' });
        this.#scheduleRate(d.charger, 'fault', d.at + lasts);
        return;
      }
      case 'clear':
        void this.#command(d.charger, 'clear-fault', on);
        return;
      case 'drop':
        this.#counts.drops++;
        void this.#command(d.charger, 'disconnect', {});
        this.#scheduleRate(d.charger, 'drop', d.at);
        return;
    }
  }

  /** The EV of a session plugs in: the session counts from here. */
  #plugIn(charger: number, connector: number, live: Live): void {
    live.plugged = true;
    this.#plugged++;
    this.#counts.sessions_started++;
    const s = live.session;
    this.sessions.push({
      charger: this.chargers[charger].identity,
      charger_index: this.#indexOf(charger),
      connector,
      ...s,
    });
    if (this.sessions.length > KEEP_SESSIONS) this.sessions.shift();
    void this.#command(charger, 'plug-in', {
      connector_id: connector,
      evse_id: connector,
      ev_max_power_kw: s.ev_max_power_kw,
      soc_percent: s.soc_percent,
      battery_kwh: s.battery_kwh,
      ...(s.v2x ? { bidirectional: true, ...s.v2x } : {}),
    });
  }

  #command(charger: number, type: EventType, payload: Record<string, unknown>): Promise<void> {
    return this.send(this.chargers[charger], type, payload as AnyPayload).catch(() => {
      this.#counts.commands_failed++;
    });
  }

  /** The one timer: at the earliest event's real time. */
  #arm(): void {
    clearTimeout(this.#timer);
    if (!this.#running || this.#heap.length === 0) return;
    const wait = ((this.#heap[0].at - this.simNow) / this.config.speed) * 1000;
    this.#timer = setTimeout(
      () => {
        this.runDue();
        this.#arm();
      },
      Math.min(Math.max(0, wait), 2 ** 31 - 1),
    );
    this.#timer.unref?.();
  }
}

// ---- a binary min-heap by (at, seq) ----

const before = (a: Due, b: Due) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

function push(h: Due[], d: Due): void {
  h.push(d);
  for (let i = h.length - 1; i > 0;) {
    const p = (i - 1) >> 1;
    if (!before(h[i], h[p])) break;
    [h[i], h[p]] = [h[p], h[i]];
    i = p;
  }
}

function pop(h: Due[]): Due | undefined {
  const top = h[0];
  const last = h.pop();
  if (h.length > 0 && last) {
    h[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && before(h[l], h[m])) m = l;
      if (r < h.length && before(h[r], h[m])) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
  return top;
}

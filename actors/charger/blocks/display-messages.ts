// Display messages (OCPP 2.0.1 block O): the central system puts messages on the charger's display.
// O01/O02 SetDisplayMessage (a message of the same id replaces it), O03 a message for one
// transaction (shown while it runs, gone when it ends), O04 GetDisplayMessages -> NotifyDisplayMessages,
// O05 ClearDisplayMessage, O06 a message replaced by id. Each message has a priority, a charger state
// it is shown in, a time window; the one on show is the first of the highest priority that applies now.
import type { ConnectorStatus } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import type { OutboundCall } from '../core/wire.ts';

export type DisplayPriority = 'AlwaysFront' | 'InFront' | 'NormalCycle';
export type DisplayState = 'Charging' | 'Faulted' | 'Idle' | 'Unavailable';

export interface DisplayMessage {
  id: number;
  priority: DisplayPriority;
  /** Shown only while the charger is in this state; absent: in any. */
  state?: DisplayState;
  /** The time window (ms; absent: open). */
  startAt?: number;
  endAt?: number;
  /** Shown only while this local transaction runs; removed once it ended. */
  txRef?: number;
  format: string;
  language?: string;
  content: string;
  /** When it was set (the later of two equal priorities is shown). */
  setAt: number;
}

declare module '../core/context.ts' {
  interface ChargerContext {
    /** Display messages the CSMS set (block O), by id, in the order they were set. */
    displayMessages?: DisplayMessage[];
    /**
     * What the charger shows of its own (the cost of a session, 2.1 block I), by connector id: on
     * the display with the CSMS's messages, but not theirs to read (GetDisplayMessages) or clear.
     */
    chargerMessages?: DisplayMessage[];
  }
}

/** What the display can show (DisplayMessageCtrlr.SupportedFormats): plain text. */
export const DISPLAY_FORMATS: readonly string[] = ['ASCII', 'UTF8'];
/** How many messages the charger keeps (DisplayMessageCtrlr.DisplayMessages). */
export const DISPLAY_MESSAGES_MAX = 8;
/** Messages a NotifyDisplayMessages carries at most (the rest follow, tbc). */
export const MESSAGES_PER_NOTIFY = 4;

const RANK: Record<DisplayPriority, number> = { AlwaysFront: 0, InFront: 1, NormalCycle: 2 };

export type SetDisplayStatus = 'Accepted' | 'NotSupportedMessageFormat' | 'Rejected' | 'UnknownTransaction';

/** O01-O03, O06: keeps the message (replacing one of its id); the transaction, if any, must run. */
export function setDisplayMessage(
  s: Step,
  m: Omit<DisplayMessage, 'setAt'>,
  transactionKnown: boolean,
): SetDisplayStatus {
  if (!transactionKnown) return 'UnknownTransaction';
  if (!DISPLAY_FORMATS.includes(m.format)) return 'NotSupportedMessageFormat';
  if (m.endAt !== undefined && m.endAt <= s.now) return 'Rejected';
  const kept = current(s).filter((x) => x.id !== m.id);
  if (kept.length >= DISPLAY_MESSAGES_MAX) return 'Rejected';
  s.patch({ displayMessages: [...kept, { ...m, setAt: s.now }] });
  return 'Accepted';
}

/** O05: removes the message of that id. */
export function clearDisplayMessage(s: Step, id: number): 'Accepted' | 'Unknown' {
  const all = current(s);
  if (!all.some((m) => m.id === id)) return 'Unknown';
  const rest = all.filter((m) => m.id !== id);
  s.patch({ displayMessages: rest.length ? rest : undefined });
  return 'Accepted';
}

/**
 * O04: the messages matching every criterion given, sent after the answer in pages of
 * MESSAGES_PER_NOTIFY (the version writes each page); Unknown when none matches.
 */
export function reportDisplayMessages(
  s: Step,
  q: { ids?: number[]; priority?: string; state?: string },
  page: (messages: DisplayMessage[], more: boolean) => OutboundCall,
): 'Accepted' | 'Unknown' {
  const found = current(s).filter(
    (m) =>
      (!q.ids?.length || q.ids.includes(m.id)) &&
      (q.priority === undefined || m.priority === q.priority) &&
      (q.state === undefined || m.state === q.state),
  );
  if (!found.length) return 'Unknown';
  for (let i = 0; i < found.length; i += MESSAGES_PER_NOTIFY)
    s.call(page(found.slice(i, i + MESSAGES_PER_NOTIFY), i + MESSAGES_PER_NOTIFY < found.length));
  return 'Accepted';
}

/** The messages still kept: none past its window's end, none of a transaction that ended. */
function current(s: Step): DisplayMessage[] {
  const all = s.ctx.displayMessages ?? [];
  const live = all.filter((m) => alive(m, s.now, runningRefs(s.ctx.connectors)));
  if (live.length !== all.length) s.patch({ displayMessages: live.length ? live : undefined });
  return live;
}

const runningRefs = (connectors: readonly { tx?: { ref: number } }[]) =>
  connectors.flatMap((c) => (c.tx ? [c.tx.ref] : []));

const alive = (m: DisplayMessage, now: number, running: number[]) =>
  (m.endAt === undefined || m.endAt > now) && (m.txRef === undefined || running.includes(m.txRef));

/** The charger's state as display messages name it. */
export function displayState(
  connectors: readonly { status: ConnectorStatus; tx?: unknown }[],
  chargerStatus: string,
): DisplayState {
  if (chargerStatus === 'Faulted' || connectors.some((c) => c.status === 'Faulted')) return 'Faulted';
  if (connectors.some((c) => c.tx && c.status === 'Charging')) return 'Charging';
  if (chargerStatus === 'Unavailable') return 'Unavailable';
  return 'Idle';
}

/**
 * The message on show at `now` (pure: the detail view reads it from a stored context): of those
 * alive, in their window and for the charger's state, the highest priority, the latest set first.
 */
export function messageOnShow(
  ctx: {
    displayMessages?: DisplayMessage[];
    chargerMessages?: DisplayMessage[];
    connectors: readonly { status: ConnectorStatus; tx?: { ref: number } }[];
    chargerStatus: string;
  },
  now: number,
): DisplayMessage | undefined {
  const running = runningRefs(ctx.connectors);
  const state = displayState(ctx.connectors, ctx.chargerStatus);
  let best: DisplayMessage | undefined;
  for (const m of [...(ctx.displayMessages ?? []), ...(ctx.chargerMessages ?? [])]) {
    if (!alive(m, now, running) || (m.startAt !== undefined && m.startAt > now)) continue;
    if (m.state !== undefined && m.state !== state) continue;
    if (
      !best ||
      RANK[m.priority] < RANK[best.priority] ||
      (RANK[m.priority] === RANK[best.priority] && m.setAt >= best.setAt)
    )
      best = m;
  }
  return best;
}

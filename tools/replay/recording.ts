// A recorded charger, read from JSON lines in either of two formats:
//   - evsim's own message log items (docs/message-log.md): {id, at, direction, type, message_id,
//     action, frame, error}; a central system's log (`out` = sent by the central system) is told
//     apart by who sent the charger's own calls, and turned round;
//   - OCPP-J frames from a real charger: {"t": time, "dir": "out"|"in", "msg": [2, "id", ...]},
//     `dir` seen from the charger (`tx`/`rx` too), `t` an ISO time or epoch milliseconds, `msg`
//     the frame or its JSON text.
// Any line may also carry `identity` and `subprotocol` (a line with only those is a header).
import { isOcppVersion, type OcppVersion } from '../../protocols/ocpp/index.ts';

export type Sender = 'charger' | 'csms';

export interface RecordedFrame {
  /** Line of the recording (from 1), as reports name it. */
  line: number;
  /** Epoch milliseconds. */
  at: number;
  from: Sender;
  /** 2 CALL, 3 CALLRESULT, 4 CALLERROR. */
  type: 2 | 3 | 4;
  messageId: string;
  /** The CALL's action; on an answer, the action of the CALL it answers (when the recording has it). */
  action: string | null;
  /** The CALL's or CALLRESULT's payload; a CALLERROR's `{errorCode, errorDescription, errorDetails}`. */
  payload: Record<string, unknown>;
}

export interface Recording {
  identity?: string;
  version?: OcppVersion;
  frames: RecordedFrame[];
}

/** A line that cannot be read: the message names the line. */
export class RecordingError extends Error {}

/** Calls only a charger makes: who sends them tells which way a log was seen. */
const CHARGER_CALLS = new Set([
  'BootNotification',
  'Heartbeat',
  'StatusNotification',
  'Authorize',
  'StartTransaction',
  'StopTransaction',
  'MeterValues',
  'TransactionEvent',
]);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

interface Parsed extends Omit<RecordedFrame, 'from'> {
  /** `out` = sent by the side that logged it. */
  direction: 'in' | 'out';
  /** Log items: the order the log gives them (their ids increase). */
  order?: bigint;
}

function timeOf(v: unknown, where: string): number {
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  if (!Number.isFinite(ms)) throw new RecordingError(`${where}: the time is not an ISO date or epoch ms`);
  return ms;
}

/** The frame array as parsed, checked to be an OCPP-J CALL, CALLRESULT or CALLERROR. */
function frameOf(v: unknown, where: string): Pick<Parsed, 'type' | 'messageId' | 'action' | 'payload'> {
  let frame = v;
  if (typeof v === 'string') {
    try {
      frame = JSON.parse(v);
    } catch {
      throw new RecordingError(`${where}: the frame is not JSON`);
    }
  }
  if (!Array.isArray(frame) || typeof frame[1] !== 'string')
    throw new RecordingError(`${where}: the frame is not an OCPP-J array [type, "id", ...]`);
  const [type, messageId] = frame;
  if (type === 2 && typeof frame[2] === 'string' && isObject(frame[3]))
    return { type, messageId, action: frame[2], payload: frame[3] };
  if (type === 3 && isObject(frame[2])) return { type, messageId, action: null, payload: frame[2] };
  if (type === 4 && typeof frame[2] === 'string')
    return {
      type,
      messageId,
      action: null,
      payload: {
        errorCode: frame[2],
        errorDescription: frame[3] ?? '',
        errorDetails: isObject(frame[4]) ? frame[4] : {},
      },
    };
  throw new RecordingError(`${where}: not a CALL, CALLRESULT or CALLERROR`);
}

const DIRECTIONS: Record<string, 'in' | 'out'> = { out: 'out', in: 'in', tx: 'out', rx: 'in' };

/** One line: a frame, a header (identity, subprotocol), or nothing to replay (an unreadable or injected frame). */
function parseLine(
  text: string,
  line: number,
  into: Recording,
): { frame?: Parsed; kind?: 'log' | 'frames' } | undefined {
  const where = `line ${line}`;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new RecordingError(`${where}: not JSON`);
  }
  if (!isObject(v)) throw new RecordingError(`${where}: not a JSON object`);
  if (typeof v.identity === 'string') into.identity ??= v.identity;
  const sub = v.subprotocol ?? v.ocpp_version;
  if (typeof sub === 'string') {
    if (!isOcppVersion(sub)) throw new RecordingError(`${where}: unknown subprotocol '${sub}'`);
    into.version ??= sub;
  }
  if ('frame' in v && 'direction' in v) {
    // An item of evsim's message log.
    const direction = DIRECTIONS[String(v.direction)];
    if (!direction || direction !== v.direction)
      throw new RecordingError(`${where}: direction is 'in' or 'out'`);
    // What a link condition did on purpose (docs/faults.md) and frames that were not OCPP-J are not replayed.
    if (v.injected || v.type === null) return { kind: 'log' };
    const frame = frameOf(v.frame, where);
    const action = typeof v.action === 'string' ? v.action : frame.action;
    let order: bigint | undefined;
    try {
      order = typeof v.id === 'string' || typeof v.id === 'number' ? BigInt(v.id) : undefined;
    } catch {
      throw new RecordingError(`${where}: id is not an integer`);
    }
    return { kind: 'log', frame: { ...frame, action, line, at: timeOf(v.at, where), direction, order } };
  }
  if ('msg' in v || 'dir' in v) {
    const direction = DIRECTIONS[String(v.dir)];
    if (!direction) throw new RecordingError(`${where}: dir is 'out' or 'in' (seen from the charger)`);
    if (!('msg' in v)) throw new RecordingError(`${where}: no msg`);
    return { kind: 'frames', frame: { ...frameOf(v.msg, where), line, at: timeOf(v.t, where), direction } };
  }
  if (Object.keys(v).every((k) => ['identity', 'subprotocol', 'ocpp_version'].includes(k))) return undefined;
  throw new RecordingError(
    `${where}: neither a message log item {direction, frame, ...} nor a frame {t, dir, msg}`,
  );
}

/** The recording in its text; throws RecordingError naming the first bad line. */
export function readRecording(text: string): Recording {
  const recording: Recording = { frames: [] };
  const parsed: Parsed[] = [];
  const kinds = new Set<string>();
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return;
    const r = parseLine(raw, i + 1, recording);
    if (r?.kind) kinds.add(r.kind);
    if (r?.frame) parsed.push(r.frame);
  });
  if (kinds.size > 1)
    throw new RecordingError('the recording mixes message log items and {t, dir, msg} frames');
  if (parsed.length === 0) throw new RecordingError('the recording holds no OCPP-J frame');
  const isLog = kinds.has('log');
  // A log read page by page comes newest first: its ids give the order.
  if (isLog && parsed.every((f) => f.order !== undefined))
    parsed.sort((a, b) => (a.order! < b.order! ? -1 : a.order! > b.order! ? 1 : 0));
  // A log is seen from the side that kept it: the built-in central system's log is turned round.
  const first = parsed.find((f) => f.type === 2 && f.action && CHARGER_CALLS.has(f.action));
  const flip = isLog && first?.direction === 'in';
  for (const f of parsed) {
    const { direction, order: _order, ...rest } = f;
    recording.frames.push({ ...rest, from: (direction === 'out') !== flip ? 'charger' : 'csms' });
  }
  nameAnswers(recording.frames);
  recording.version ??= versionFromBoot(recording.frames);
  return recording;
}

/** Every answer names the action of the call it answers (from the other side, earlier). */
function nameAnswers(frames: RecordedFrame[]): void {
  const open = new Map<string, RecordedFrame>();
  for (const f of frames) {
    if (f.type === 2) open.set(`${f.from}:${f.messageId}`, f);
    else {
      const call = open.get(`${f.from === 'charger' ? 'csms' : 'charger'}:${f.messageId}`);
      if (call) f.action ??= call.action;
    }
  }
}

/** 1.6 boots with chargePointVendor, 2.x with chargingStation (2.0.1 assumed; --ocpp says otherwise). */
function versionFromBoot(frames: RecordedFrame[]): OcppVersion | undefined {
  const boot = frames.find((f) => f.type === 2 && f.from === 'charger' && f.action === 'BootNotification');
  if (!boot) return undefined;
  if ('chargePointVendor' in boot.payload) return 'ocpp1.6';
  if ('chargingStation' in boot.payload) return 'ocpp2.0.1';
  return undefined;
}

/** The recorded answer to a call, if the recording has it. */
export function answerTo(frames: RecordedFrame[], call: RecordedFrame): RecordedFrame | undefined {
  const other: Sender = call.from === 'charger' ? 'csms' : 'charger';
  const start = frames.indexOf(call);
  return frames.find(
    (f, i) => i > start && f.from === other && f.type !== 2 && f.messageId === call.messageId,
  );
}

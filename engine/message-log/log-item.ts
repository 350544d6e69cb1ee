// One item of the OCPP message log and its JSON text, as the API, the stream and the MQTT relay
// show it: {id, at, direction, type, message_id, action, frame, error}, plus `injected` on the
// items of faults injected on purpose (docs/faults.md). The frame is kept as the
// text that crossed the wire (valid JSON) and embedded as is, so what is shown is the exact frame
// and nothing is parsed or serialized again per frame.

/** What an item is made of, captured (LogEntry) or read back from PostgreSQL. */
export interface LogItemFields {
  /** Increasing per charger: microseconds since the epoch at capture, bumped past the previous id. */
  id: number;
  /** Epoch milliseconds. */
  at: number;
  /** Seen from the side that logged it: `out` = sent by it. */
  direction: 'in' | 'out';
  /** OCPP-J message type number; null when the frame could not be read. */
  type: number | null;
  messageId: string | null;
  action: string | null;
  /** The frame's JSON text (one that was not JSON: a JSON string of its text, withheld if it names a secret). */
  frame: string;
  error: string | null;
  /** What a link condition did to this frame (docs/faults.md); null or absent for a frame as it went. */
  injected?: string | null;
}

const TYPE_NAMES: Readonly<Record<number, string>> = {
  2: '"CALL"',
  3: '"CALLRESULT"',
  4: '"CALLERROR"',
  5: '"CALLRESULTERROR"',
  6: '"SEND"',
};

const str = (v: string | null): string => (v === null ? 'null' : JSON.stringify(v));

/** The item as JSON text, the frame embedded verbatim. */
export function itemJson(e: LogItemFields): string {
  return (
    `{"id":"${e.id}","at":"${new Date(e.at).toISOString()}","direction":"${e.direction}",` +
    `"type":${(e.type !== null && TYPE_NAMES[e.type]) || 'null'},"message_id":${str(e.messageId)},` +
    `"action":${str(e.action)},"frame":${e.frame},"error":${str(e.error)}` +
    (e.injected ? `,"injected":${JSON.stringify(e.injected)}}` : '}')
  );
}

/** The message type of a frame the RPC layer could not read, when its head says it (`[2,` ...). */
export function typeOfUnreadable(text: string): number | null {
  const m = /^\s*\[\s*([2-6])\s*[,\]]/.exec(text);
  return m ? Number(m[1]) : null;
}

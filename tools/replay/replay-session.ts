// Plays the charger's side of a recording against a central system over one OCPP-J connection:
// its calls in order with their recorded timing (divided by the speed), each sent once the
// previous one is answered as a charger does; the central system's calls answered with what the
// charger answered to that action in the recording (in order). Message ids are new; transaction
// ids the central system gives are mapped onto the recorded ones in what the charger sends later.
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { parseFrame, type OcppVersion } from '../../protocols/ocpp/index.ts';
import { compareAnswers, type Answer, type FieldDifference } from './compare.ts';
import { answerTo, type RecordedFrame, type Recording } from './recording.ts';

export interface ReplayOptions {
  wsUrl: string;
  identity: string;
  version: OcppVersion;
  password?: string;
  /** Recorded time is divided by this; 0: as fast as the central system answers. */
  speed: number;
  /** How long an answer or a recorded call of the central system is waited for. */
  timeoutMs: number;
}

export interface FrameDifference extends FieldDifference {
  /** The recorded frame's line: the charger's call answered differently, or the central system's call. */
  line: number | null;
  action: string;
}

export interface ReplayResult {
  identity: string;
  ocpp_version: OcppVersion;
  ws_url: string;
  /** Calls of the charger sent. */
  sent: number;
  /** Answers compared with a recorded one. */
  compared: number;
  /** Calls of the central system answered. */
  answered: number;
  differences: FrameDifference[];
}

const NONE = '(none)';

/** The payload with every `transactionId` the map knows replaced by the central system's own. */
function mapTransactionIds(v: unknown, ids: Map<string, unknown>): unknown {
  if (Array.isArray(v)) return v.map((x) => mapTransactionIds(x, ids));
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      k === 'transactionId' && ids.has(JSON.stringify(x))
        ? ids.get(JSON.stringify(x))
        : mapTransactionIds(x, ids),
    ]),
  );
}

/**
 * Opens the connection as a charger does (`URL/IDENTITY`, the version's subprotocol, Basic auth
 * with the identity as user name); rejects with one line naming the URL when it cannot. A plain
 * WebSocket, not the virtual charger's link: the replay writes the recorded frames as they are.
 */
function connect(
  o: ReplayOptions,
  onMessage: (text: string) => void,
  onClose: (why: string) => void,
): Promise<WebSocket> {
  const url = `${o.wsUrl.replace(/\/+$/, '')}/${encodeURIComponent(o.identity)}`;
  const headers: Record<string, string> = {};
  if (o.password !== undefined)
    headers.authorization = `Basic ${Buffer.from(`${o.identity}:${o.password}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, [o.version], {
      headers,
      handshakeTimeout: 10_000,
      perMessageDeflate: false,
    });
    const refused = (why: string) => reject(new Error(`cannot connect to ${url}: ${why}`));
    ws.on('unexpected-response', (_req, res) => {
      refused(`HTTP ${res.statusCode}${res.statusCode === 401 ? ' (give --password)' : ''}`);
      ws.terminate();
    });
    ws.on('error', (err) => refused((err as NodeJS.ErrnoException).code ?? err.message));
    ws.on('open', () => {
      if (ws.protocol !== o.version) {
        ws.close(1002, 'subprotocol');
        return refused(`the central system did not accept the subprotocol ${o.version}`);
      }
      ws.on('close', (code, reason) =>
        onClose(`the central system closed the connection (${code} ${reason.toString()})`),
      );
      resolve(ws);
    });
    ws.on('message', (data) => onMessage(data.toString()));
  });
}

export async function replay(rec: Recording, o: ReplayOptions): Promise<ReplayResult> {
  const result: ReplayResult = {
    identity: o.identity,
    ocpp_version: o.version,
    ws_url: o.wsUrl,
    sent: 0,
    compared: 0,
    answered: 0,
    differences: [],
  };
  const differ = (f: { line: number | null; action: string | null }, d: FieldDifference) =>
    result.differences.push({ line: f.line, action: f.action ?? '?', ...d });

  // The central system's recorded calls, by action, in order, each with the charger's answer.
  const expectedCalls = new Map<string, RecordedFrame[]>();
  for (const f of rec.frames)
    if (f.from === 'csms' && f.type === 2)
      expectedCalls.set(f.action!, [...(expectedCalls.get(f.action!) ?? []), f]);
  let expecting = [...expectedCalls.values()].reduce((n, l) => n + l.length, 0);
  let allCallsCame: (() => void) | undefined;

  const pending = new Map<string, (a: Answer) => void>();
  let closed: string | undefined;

  const onCsmsCall = (id: string, action: string, payload: unknown) => {
    const recorded = expectedCalls.get(action)?.shift();
    if (!recorded) {
      differ({ line: null, action }, { field: 'call', rule: 'presence', expected: NONE, got: payload });
      socket.send(JSON.stringify([4, id, 'NotImplemented', 'not in the recording', {}]));
      return;
    }
    result.answered++;
    if (--expecting === 0) allCallsCame?.();
    const answer = answerTo(rec.frames, recorded);
    if (!answer) return; // the charger never answered it in the recording either
    const p = answer.payload;
    socket.send(
      JSON.stringify(
        answer.type === 3 ? [3, id, p] : [4, id, p.errorCode, p.errorDescription ?? '', p.errorDetails ?? {}],
      ),
    );
  };

  const socket = await connect(
    o,
    (text) => {
      const f = parseFrame(text, o.version);
      if (f.type === 2) onCsmsCall(f.id, f.action, f.payload);
      else if (f.type === 3) pending.get(f.id)?.({ type: 3, payload: f.payload });
      else if (f.type === 4)
        pending.get(f.id)?.({
          type: 4,
          payload: { errorCode: f.code, errorDescription: f.description, errorDetails: f.details },
        });
    },
    (why) => {
      closed = why;
      for (const settle of pending.values()) settle({ type: 4, payload: { errorCode: NONE } });
      allCallsCame?.();
    },
  );

  const transactionIds = new Map<string, unknown>();
  const t0 = rec.frames[0].at;
  const start = Date.now();
  let n = 0;
  try {
    for (const call of rec.frames) {
      if (call.from !== 'charger' || call.type !== 2) continue;
      if (o.speed > 0) {
        const due = start + (call.at - t0) / o.speed - Date.now();
        if (due > 0) await sleep(due);
      }
      if (closed) throw new Error(closed);
      const id = `replay-${++n}`;
      const answered = new Promise<Answer | undefined>((resolve) => {
        pending.set(id, resolve);
        const timer = setTimeout(() => resolve(undefined), o.timeoutMs);
        timer.unref();
      });
      socket.send(JSON.stringify([2, id, call.action, mapTransactionIds(call.payload, transactionIds)]));
      result.sent++;
      const got = await answered;
      pending.delete(id);
      if (closed) throw new Error(closed);
      const recorded = answerTo(rec.frames, call);
      if (!recorded) continue; // unanswered in the recording: nothing to compare with
      const expected: Answer = { type: recorded.type as 3 | 4, payload: recorded.payload };
      if (!got) {
        differ(call, {
          field: 'type',
          rule: 'type',
          expected: expected.type === 3 ? 'CALLRESULT' : 'CALLERROR',
          got: `${NONE} within ${o.timeoutMs / 1000} s`,
        });
        continue;
      }
      result.compared++;
      for (const d of compareAnswers(expected, got)) differ(call, d);
      if (
        got.type === 3 &&
        expected.payload.transactionId !== undefined &&
        got.payload.transactionId !== undefined
      )
        transactionIds.set(JSON.stringify(expected.payload.transactionId), got.payload.transactionId);
    }
    // The central system's calls still to come (recorded after the charger's last call).
    if (expecting > 0 && !closed)
      await new Promise<void>((resolve) => {
        allCallsCame = resolve;
        setTimeout(resolve, o.timeoutMs).unref();
      });
    for (const [action, left] of expectedCalls)
      for (const f of left)
        differ({ line: f.line, action }, { field: 'call', rule: 'presence', expected: f.payload, got: NONE });
  } finally {
    socket.close(1000, 'replay done');
  }
  result.differences.sort((a, b) => (a.line ?? Infinity) - (b.line ?? Infinity));
  return result;
}

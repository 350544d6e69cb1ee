// What an RpcEndpoint tells its observers: every frame in and out (message logs), schema and
// framing failures, and the round trip of each of its CALLs (load tests). All optional; one that
// is absent costs nothing.
import type { RpcError } from './rpc-error.ts';

export interface SchemaErrorReport {
  direction: 'in' | 'out';
  kind: 'call' | 'result';
  action: string;
  code: string;
  message: string;
}

export interface BadFrameReport {
  text: string;
  code: string;
  message: string;
}

export type CallOutcome = 'result' | 'error' | 'timeout';

/**
 * Told of every frame this endpoint writes or receives, in wire order and before it is acted on
 * (message logs). `type` is the OCPP-J message type number (2 CALL, 3 CALLRESULT, 4 CALLERROR;
 * 5 and 6 in OCPP 2.1), null when the frame could not be read; `action` is the CALL's action, also
 * on its CALLRESULT / CALLERROR (null when it answers no call of ours); `error` says why the frame
 * failed validation (schema or framing), else null. Positional on purpose: called per frame, it
 * allocates nothing. `injected` is never given by an endpoint: a charger's link conditions
 * (engine/charger/link-conditions.ts) name with it what they did to the frame (drop, duplicate, ...).
 */
export type FrameObserver = (
  direction: 'in' | 'out',
  text: string,
  type: number | null,
  messageId: string | null,
  action: string | null,
  error: string | null,
  injected?: string | null,
) => void;

/** The observers of one endpoint (part of RpcEndpointOptions). */
export interface FrameHooks {
  onSchemaError?: (e: SchemaErrorReport) => void;
  /** A frame that is not OCPP-J (not JSON, wrong shape, unknown message type). */
  onBadFrame?: (e: BadFrameReport) => void;
  /**
   * Told when one of our CALLs is answered or times out, with the time since it was written
   * (load tests measure round trips with it, the engine measures the central system). `answer` is
   * the CALLRESULT's payload, the CALLERROR's code (a string), or undefined on a timeout.
   * Positional, allocates nothing; costs nothing when absent.
   */
  onCallAnswered?: (action: string, ms: number, outcome: CallOutcome, answer: unknown) => void;
  /**
   * Told when a CALLRESULT or CALLERROR answers our last CALL that had timed out (OCPP-J says to
   * ignore it; it tells that the peer answered, slower than the call timeout), with the time since
   * the CALL was written. Calls go one at a time, so only the last timed-out CALL is remembered.
   */
  onLateAnswer?: (action: string, ms: number) => void;
  /**
   * Told when we answer a CALL of the peer: `payload` is our CALLRESULT's payload, or undefined
   * when we answered with a CALLERROR of `errorCode`. Costs nothing when absent.
   */
  onCallReplied?: (action: string, payload: unknown, errorCode: string | null) => void;
  /** Every frame in and out (see FrameObserver). Costs nothing when absent. */
  onFrame?: FrameObserver;
}

/** Tells onSchemaError of a schema violation, in or out, of a call or a result. */
export function reportSchemaError(
  onSchemaError: FrameHooks['onSchemaError'],
  direction: 'in' | 'out',
  kind: 'call' | 'result',
  action: string,
  error: RpcError,
): void {
  onSchemaError?.({ direction, kind, action, code: error.code, message: error.description });
}

/** A validation failure as one line (a frame's `error` for onFrame): `code: description`. */
export function errorText(error: RpcError): string {
  return `${error.code}: ${error.description}`;
}

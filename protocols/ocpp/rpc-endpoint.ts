import { errorCodeFor } from './error-codes.ts';
import {
  errorText,
  reportSchemaError,
  type BadFrameReport,
  type CallOutcome,
  type FrameHooks,
  type FrameObserver,
  type SchemaErrorReport,
} from './frame-hooks.ts';
import { RpcClosedError, RpcError, RpcTimeoutError } from './rpc-error.ts';
import {
  MessageType,
  parseFrame,
  serializeCall,
  serializeError,
  serializeResult,
  type CallFrame,
  type SendFrame,
} from './rpc-frame.ts';
import { hasAction, validateCall, validateResult } from './schema-validator.ts';
import { VERSION_PROFILES, type OcppVersion } from './versions.ts';

export interface RpcClock {
  setTimeout: typeof setTimeout;
  clearTimeout: typeof clearTimeout;
}

/** With the observers of FrameHooks (frame-hooks.ts). */
export interface RpcEndpointOptions extends FrameHooks {
  version: OcppVersion;
  /** Writes one frame to the transport. */
  send: (text: string) => void;
  /**
   * Handles an incoming CALL: the return value is the CALLRESULT payload (undefined sends `{}`);
   * throw an RpcError to answer with its code, anything else thrown answers InternalError.
   * Payloads are typed loosely on purpose: the schema has already checked them.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  onCall: (action: string, payload: any) => unknown | Promise<unknown>;
  /** Default 30000; counted from the moment the CALL is written, not while it waits in the queue. */
  callTimeoutMs?: number;
  /** 'strict' (default) checks every message in and out against the official schemas. */
  validation?: 'strict' | 'off';
  clock?: RpcClock;
}

export interface CallOptions {
  /** Send the payload as written and accept whatever result comes back (raw proxy messages). */
  skipValidation?: boolean;
  timeoutMs?: number;
}

interface OutgoingCall {
  id: string;
  action: string;
  payload: unknown;
  skipValidation: boolean;
  timeoutMs: number;
  /** performance.now() when written; only kept when someone listens to onCallAnswered. */
  sentAt: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  resolve: (result: any) => void;
  reject: (error: Error) => void;
}

// Looks the globals up at call time so test doubles installed later (mock timers) are honoured.
const SYSTEM_CLOCK: RpcClock = {
  setTimeout: ((fn: () => void, ms: number) => setTimeout(fn, ms)) as typeof setTimeout,
  clearTimeout: (handle) => clearTimeout(handle),
};

/**
 * One side of an OCPP-J connection, without the connection: feed it incoming frames with
 * `receive`, and it writes through `send`. OCPP-J allows one outstanding CALL per direction,
 * so calls wait in a FIFO queue until the previous one is answered or times out.
 */
export class RpcEndpoint {
  readonly version: OcppVersion;
  readonly #send: (text: string) => void;
  readonly #onCall: RpcEndpointOptions['onCall'];
  readonly #strict: boolean;
  readonly #callTimeoutMs: number;
  readonly #onSchemaError: ((e: SchemaErrorReport) => void) | undefined;
  readonly #onBadFrame: ((e: BadFrameReport) => void) | undefined;
  readonly #onCallAnswered: RpcEndpointOptions['onCallAnswered'];
  readonly #onFrame: FrameObserver | undefined;
  readonly #onCallReplied: RpcEndpointOptions['onCallReplied'];
  readonly #onLateAnswer: RpcEndpointOptions['onLateAnswer'];
  readonly #clock: RpcClock;
  // Message ids only need to be unique per endpoint: a random prefix and a counter.
  readonly #idPrefix = Math.random().toString(36).slice(2, 8);
  #idCounter = 0;
  #inFlight: OutgoingCall | null = null;
  /** The last CALL that timed out, kept only for onLateAnswer. */
  #timedOut: OutgoingCall | null = null;
  #queue: OutgoingCall[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed: Error | null = null;

  constructor(opts: RpcEndpointOptions) {
    this.version = opts.version;
    this.#send = opts.send;
    this.#onCall = opts.onCall;
    this.#strict = (opts.validation ?? 'strict') === 'strict';
    this.#callTimeoutMs = opts.callTimeoutMs ?? 30_000;
    this.#onSchemaError = opts.onSchemaError;
    this.#onBadFrame = opts.onBadFrame;
    this.#onCallAnswered = opts.onCallAnswered;
    this.#onFrame = opts.onFrame;
    this.#onCallReplied = opts.onCallReplied;
    this.#onLateAnswer = opts.onLateAnswer;
    this.#clock = opts.clock ?? SYSTEM_CLOCK;
  }

  /** Outstanding plus queued calls. */
  get pendingCount(): number {
    return this.#queue.length + (this.#inFlight ? 1 : 0);
  }

  /**
   * Sends a CALL and resolves with the CALLRESULT payload. Rejects with an RpcError (the peer's
   * CALLERROR, or a schema violation on either side), RpcTimeoutError or RpcClosedError.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call(action: string, payload: unknown, opts?: CallOptions): Promise<any> {
    if (this.#closed) return Promise.reject(new RpcClosedError(action, this.#closed));
    const skipValidation = opts?.skipValidation === true || !this.#strict;
    if (!skipValidation) {
      const error = validateCall(this.version, action, payload);
      if (error) {
        reportSchemaError(this.#onSchemaError, 'out', 'call', action, error);
        return Promise.reject(error);
      }
    }
    return new Promise((resolve, reject) => {
      this.#queue.push({
        id: '',
        action,
        payload,
        skipValidation,
        timeoutMs: opts?.timeoutMs ?? this.#callTimeoutMs,
        sentAt: 0,
        resolve,
        reject,
      });
      this.#sendNext();
    });
  }

  /** Feeds one incoming frame (a WebSocket text message). */
  receive(text: string): void {
    if (this.#closed) return;
    const frame = parseFrame(text, this.version);
    switch (frame.type) {
      case MessageType.CALL:
      case MessageType.SEND:
        this.#handleCall(frame, text);
        return;
      case MessageType.CALLRESULT: {
        // Checked and told to the observer before the call settles: settling sends the next
        // queued CALL, which must not overtake the answer it follows in the log.
        const call = this.#answered(frame.id);
        const error =
          call && !call.skipValidation ? validateResult(this.version, call.action, frame.payload) : null;
        this.#onFrame?.('in', text, frame.type, frame.id, call?.action ?? null, error && errorText(error));
        if (!call) return this.#late(frame.id); // OCPP-J says ignore it
        this.#settle(call, 'result', frame.payload);
        if (error) {
          reportSchemaError(this.#onSchemaError, 'in', 'result', call.action, error);
          call.reject(error);
          return;
        }
        call.resolve(frame.payload);
        return;
      }
      case MessageType.CALLERROR: {
        const call = this.#answered(frame.id);
        this.#onFrame?.('in', text, frame.type, frame.id, call?.action ?? null, null);
        if (!call) return this.#late(frame.id);
        this.#settle(call, 'error', frame.code);
        call.reject(new RpcError(frame.code, frame.description, frame.details));
        return;
      }
      case MessageType.CALLRESULTERROR:
        // OCPP 2.1: the peer disliked one of our results; nothing to answer or retry.
        this.#onFrame?.('in', text, frame.type, frame.id, null, null);
        return;
      default: {
        const code = errorCodeFor(this.version, frame.problem);
        this.#onFrame?.('in', text, null, frame.id, null, `${code}: ${frame.message}`);
        this.#onBadFrame?.({ text, code, message: frame.message });
        const call = frame.id === null ? null : this.#answered(frame.id);
        if (call) {
          this.#settle(call, 'error', code);
          call.reject(new RpcError(code, frame.message));
        } else if (frame.id !== null) {
          this.#reply(serializeError(frame.id, code, frame.message), MessageType.CALLERROR, frame.id, null);
        } else if (VERSION_PROFILES[this.version].answersUnreadableId) {
          // OCPP-J 2.0.1 §4.2.3: answer with message id "-1" when the id cannot be read.
          this.#reply(serializeError('-1', code, frame.message), MessageType.CALLERROR, '-1', null);
        }
      }
    }
  }

  /** Rejects the outstanding and queued calls with RpcClosedError; the endpoint stays closed. */
  close(reason?: Error): void {
    if (this.#closed) return;
    this.#closed = reason ?? new Error('endpoint closed');
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    const calls = this.#inFlight ? [this.#inFlight, ...this.#queue] : this.#queue;
    this.#inFlight = null;
    this.#queue = [];
    for (const call of calls) call.reject(new RpcClosedError(call.action, reason));
  }

  #sendNext(): void {
    while (!this.#inFlight && this.#queue.length > 0 && !this.#closed) {
      const call = this.#queue.shift()!;
      call.id = this.#idPrefix + (++this.#idCounter).toString(36);
      // In flight before writing: an in-process transport may deliver the answer synchronously.
      this.#inFlight = call;
      this.#timer = this.#clock.setTimeout(this.#onTimeout, call.timeoutMs);
      if (this.#onCallAnswered || this.#onLateAnswer) call.sentAt = performance.now();
      try {
        const text = serializeCall(call.id, call.action, call.payload);
        // Told before writing, for the same reason as the in-flight mark above.
        this.#onFrame?.('out', text, MessageType.CALL, call.id, call.action, null);
        this.#send(text);
      } catch (error) {
        if (this.#inFlight === call) {
          this.#clock.clearTimeout(this.#timer);
          this.#timer = undefined;
          this.#inFlight = null;
        }
        call.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  /** The outstanding call when `id` answers it, else null. */
  #answered(id: string): OutgoingCall | null {
    const call = this.#inFlight;
    return call && call.id === id ? call : null;
  }

  /** Takes the outstanding call off the line and lets the next queued call go. */
  #settle(call: OutgoingCall, outcome: CallOutcome, answer: unknown): void {
    this.#onCallAnswered?.(call.action, performance.now() - call.sentAt, outcome, answer);
    this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#inFlight = null;
    this.#sendNext();
  }

  /** An answer to no outstanding CALL: the last timed-out one's is told to onLateAnswer, once. */
  #late(id: string): void {
    const call = this.#timedOut;
    if (!call || call.id !== id) return;
    this.#timedOut = null;
    this.#onLateAnswer!(call.action, performance.now() - call.sentAt);
  }

  readonly #onTimeout = (): void => {
    const call = this.#inFlight;
    this.#timer = undefined;
    if (!call) return;
    this.#inFlight = null;
    if (this.#onLateAnswer) this.#timedOut = call;
    this.#onCallAnswered?.(call.action, performance.now() - call.sentAt, 'timeout', undefined);
    call.reject(new RpcTimeoutError(call.action, call.timeoutMs));
    this.#sendNext();
  };

  #handleCall(frame: CallFrame | SendFrame, text: string): void {
    const { id, action, payload } = frame;
    const answer = frame.type === MessageType.CALL;
    const known = !this.#strict || hasAction(this.version, action);
    const error = this.#strict && known ? validateCall(this.version, action, payload) : null;
    this.#onFrame?.('in', text, frame.type, id, action, error && errorText(error));
    if (!known) {
      if (answer) this.#replied(action, undefined, 'NotImplemented');
      if (answer)
        this.#reply(
          serializeError(id, 'NotImplemented', `${action} is not an action of ${this.version}`),
          MessageType.CALLERROR,
          id,
          action,
        );
      return;
    }
    if (error) {
      reportSchemaError(this.#onSchemaError, 'in', 'call', action, error);
      if (answer) this.#replied(action, undefined, error.code);
      if (answer)
        this.#reply(
          serializeError(id, error.code, error.description, error.details),
          MessageType.CALLERROR,
          id,
          action,
        );
      return;
    }
    let result: unknown;
    try {
      result = this.#onCall(action, payload);
    } catch (error) {
      if (answer) this.#replyError(id, action, error);
      return;
    }
    if (!answer) {
      if (result instanceof Promise) result.catch(() => {}); // SEND: nobody to tell
      return;
    }
    if (result instanceof Promise) {
      result.then(
        (value) => this.#replyResult(id, action, value),
        (error) => this.#replyError(id, action, error),
      );
    } else {
      this.#replyResult(id, action, result);
    }
  }

  #replyResult(id: string, action: string, value: unknown): void {
    const payload = value === undefined ? {} : value;
    if (this.#strict) {
      const error = validateResult(this.version, action, payload);
      if (error) {
        // Our own handler broke the schema: tell the peer it is our fault, not theirs.
        reportSchemaError(this.#onSchemaError, 'out', 'result', action, error);
        this.#replied(action, undefined, 'InternalError');
        this.#reply(
          serializeError(id, 'InternalError', `invalid ${action} response: ${error.description}`),
          MessageType.CALLERROR,
          id,
          action,
          errorText(error),
        );
        return;
      }
    }
    this.#replied(action, payload, null);
    this.#reply(serializeResult(id, payload), MessageType.CALLRESULT, id, action);
  }

  #replyError(id: string, action: string, error: unknown): void {
    if (error instanceof RpcError) {
      const code = errorCodeFor(this.version, error.code);
      this.#replied(action, undefined, code);
      this.#reply(
        serializeError(id, code, error.description, error.details),
        MessageType.CALLERROR,
        id,
        action,
      );
    } else {
      const description = error instanceof Error ? error.message : String(error);
      this.#replied(action, undefined, 'InternalError');
      this.#reply(serializeError(id, 'InternalError', description), MessageType.CALLERROR, id, action);
    }
  }

  /** Tells onCallReplied of the answer about to be written (none once closed: it is not written). */
  #replied(action: string, payload: unknown, errorCode: string | null): void {
    if (!this.#closed) this.#onCallReplied?.(action, payload, errorCode);
  }

  #reply(text: string, type: number, id: string, action: string | null, error: string | null = null): void {
    if (this.#closed) return; // the answer to a call that arrived before the connection went
    this.#onFrame?.('out', text, type, id, action, error);
    try {
      this.#send(text);
    } catch {
      // The transport is going away and its close will close this endpoint; the answer is lost
      // with the connection, which is what the peer sees either way.
    }
  }
}

/**
 * An OCPP-J CALLERROR: thrown by handlers to answer with that code, and the rejection of
 * `RpcEndpoint.call` when the peer answers with one (or its answer breaks the schema).
 */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly code: string;
  readonly description: string;
  readonly details: Record<string, unknown>;

  constructor(code: string, description = '', details: Record<string, unknown> = {}) {
    super(description ? `${code}: ${description}` : code);
    this.code = code;
    this.description = description;
    this.details = details;
  }
}

/** No CALLRESULT or CALLERROR arrived within the call timeout. */
export class RpcTimeoutError extends Error {
  override readonly name = 'RpcTimeoutError';
  readonly action: string;

  constructor(action: string, timeoutMs: number) {
    super(`${action}: no response within ${timeoutMs} ms`);
    this.action = action;
  }
}

/** The endpoint was closed (connection gone) while the call was outstanding or queued. */
export class RpcClosedError extends Error {
  override readonly name = 'RpcClosedError';

  constructor(action: string, reason?: Error) {
    super(`${action}: connection closed${reason ? ` (${reason.message})` : ''}`, { cause: reason });
  }
}

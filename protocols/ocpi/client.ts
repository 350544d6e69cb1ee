// The one OCPI client for every outbound call to a roaming partner. Transport (fetch), clock,
// ids and the call log are injected, so it does no I/O of its own. Each call returns a typed
// outcome; `failureOf` is the one mapping of a failed outcome to 502/504 and a detail naming
// the partner and what it answered. Callers map that to their own error type.
import { randomUUID } from 'node:crypto';
import { isOcpiSuccess, ocpiEnvelopeSchema } from './envelope.ts';

export interface OcpiPartnerRef {
  id: number;
  name: string;
  /** Credentials token, sent as `Authorization: Token <token>`; never logged. */
  token: string;
}

export interface OcpiRequest {
  partner: OcpiPartnerRef;
  method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  body?: unknown;
  /** Ties every call made for one incoming request together (X-Correlation-ID). */
  correlationId: string;
}

interface Answered {
  httpStatus: number;
  ocpiStatusCode: number | null;
  statusMessage: string | null;
}

/** What came back (or did not), before request id and duration are added. */
type OcpiAnswer =
  | ({ kind: 'accepted'; data: unknown } & Answered)
  /** HTTP 2xx with an OCPI status_code outside 1xxx (2xxx business rule, 3xxx server error). */
  | ({ kind: 'rejected' } & Answered)
  | ({ kind: 'http_error' } & Answered)
  /** HTTP 2xx without an OCPI response envelope. */
  | ({ kind: 'invalid_response'; error: string } & Answered)
  | { kind: 'unreachable'; error: string }
  | { kind: 'timeout'; timeoutMs: number };

export type OcpiOutcome = { requestId: string; durationMs: number } & OcpiAnswer;
export type OcpiFailure = Exclude<OcpiOutcome, { kind: 'accepted' }>;

/** One outbound call as it is logged: never the token, never the body. */
export interface OcpiCallRecord {
  partnerId: number;
  partner: string;
  method: string;
  url: string;
  outcome: OcpiOutcome['kind'];
  httpStatus: number | null;
  ocpiStatusCode: number | null;
  durationMs: number;
  requestId: string;
  correlationId: string;
}

export interface OcpiClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface OcpiClientOptions {
  timeoutMs: number;
  fetch?: typeof fetch;
  clock?: OcpiClock;
  newId?: () => string;
  onCall?: (record: OcpiCallRecord) => void;
}

const realClock: OcpiClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export class OcpiClient {
  private readonly fetch: typeof fetch;
  private readonly clock: OcpiClock;
  private readonly newId: () => string;

  constructor(private readonly opts: OcpiClientOptions) {
    this.fetch = opts.fetch ?? globalThis.fetch;
    this.clock = opts.clock ?? realClock;
    this.newId = opts.newId ?? randomUUID;
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  async send(req: OcpiRequest): Promise<OcpiOutcome> {
    const requestId = this.newId();
    const started = this.clock.now();
    const abort = new AbortController();
    let timedOut = false;
    // The timeout covers the whole exchange, body included: a partner that sends headers and
    // then stalls is a timeout too.
    const timer = this.clock.setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.opts.timeoutMs);
    let outcome: OcpiOutcome;
    try {
      const res = await this.fetch(req.url, {
        method: req.method,
        headers: {
          authorization: `Token ${req.partner.token}`,
          'x-request-id': requestId,
          'x-correlation-id': req.correlationId,
          accept: 'application/json',
          ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: abort.signal,
      });
      const text = await res.text();
      outcome = {
        requestId,
        durationMs: this.elapsed(started),
        ...classify(res.status, text),
      } as OcpiOutcome;
    } catch (err) {
      const durationMs = this.elapsed(started);
      outcome = timedOut
        ? { requestId, durationMs, kind: 'timeout', timeoutMs: this.opts.timeoutMs }
        : { requestId, durationMs, kind: 'unreachable', error: networkError(err) };
    } finally {
      this.clock.clearTimeout(timer);
    }
    this.opts.onCall?.({
      partnerId: req.partner.id,
      partner: req.partner.name,
      method: req.method,
      url: req.url,
      outcome: outcome.kind,
      httpStatus: 'httpStatus' in outcome ? outcome.httpStatus : null,
      ocpiStatusCode: 'ocpiStatusCode' in outcome ? outcome.ocpiStatusCode : null,
      durationMs: outcome.durationMs,
      requestId,
      correlationId: req.correlationId,
    });
    return outcome;
  }

  private elapsed(started: number): number {
    return Math.round(this.clock.now() - started);
  }
}

function classify(httpStatus: number, text: string): OcpiAnswer {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  const envelope = ocpiEnvelopeSchema.safeParse(json);
  const answered: Answered = {
    httpStatus,
    ocpiStatusCode: envelope.success ? envelope.data.status_code : null,
    statusMessage: envelope.success ? (envelope.data.status_message ?? null) : null,
  };
  if (httpStatus >= 400 || httpStatus < 200) return { kind: 'http_error', ...answered };
  if (!envelope.success)
    return { kind: 'invalid_response', error: 'the answer is not an OCPI response envelope', ...answered };
  if (!isOcpiSuccess(envelope.data.status_code)) return { kind: 'rejected', ...answered };
  return { kind: 'accepted', data: envelope.data.data, ...answered };
}

function networkError(err: unknown): string {
  // undici reports "fetch failed" with the socket error as the cause.
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return cause.code;
  if (cause?.message) return cause.message;
  return (err as Error)?.message ?? String(err);
}

/** What the partner answered, in words: "HTTP 500", "OCPI status 2001 'Unknown token'", ... */
export function describeAnswer(outcome: OcpiOutcome): string {
  switch (outcome.kind) {
    case 'timeout':
      return `did not answer within ${outcome.timeoutMs} ms`;
    case 'unreachable':
      return `could not be reached (${outcome.error})`;
    case 'invalid_response':
      return `answered HTTP ${outcome.httpStatus} without an OCPI response envelope`;
    default: {
      const ocpi =
        outcome.ocpiStatusCode === null
          ? ''
          : ` with OCPI status ${outcome.ocpiStatusCode}${outcome.statusMessage ? ` '${outcome.statusMessage}'` : ''}`;
      return `answered HTTP ${outcome.httpStatus}${ocpi}`;
    }
  }
}

/** The partner as named in details: "partner 'Acme CPO' (id 3)". */
export const partnerLabel = (p: Pick<OcpiPartnerRef, 'id' | 'name'>): string =>
  `partner '${p.name}' (id ${p.id})`;

/**
 * The one mapping of failed calls to an HTTP status: any partner timing out and none failing
 * otherwise is 504 (gateway timed out); anything else is 502 (unreachable, failing, misconfigured).
 */
export function failureOf(
  what: string,
  failures: Array<{ partner: Pick<OcpiPartnerRef, 'id' | 'name'>; outcome: OcpiFailure }>,
): { status: 502 | 504; detail: string } {
  const status = failures.every((f) => f.outcome.kind === 'timeout') ? 504 : 502;
  const parts = failures.map((f) => `${partnerLabel(f.partner)} ${describeAnswer(f.outcome)}`);
  return { status, detail: `${what} failed: ${parts.join('; ')}` };
}

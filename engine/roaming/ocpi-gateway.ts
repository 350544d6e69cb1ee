// Builds the OCPI client the engine uses for every partner call, with the configured timeout,
// and logs each call with its duration (never the credentials token).
import { OcpiClient, type OcpiCallRecord } from '../../protocols/ocpi/client.ts';
import type { Logger } from '../platform/log/logger.ts';

export function createOcpiClient(
  opts: { timeoutMs: number; log: Logger },
  fetchImpl: typeof fetch = globalThis.fetch,
): OcpiClient {
  return new OcpiClient({
    timeoutMs: opts.timeoutMs,
    fetch: fetchImpl,
    onCall: (call: OcpiCallRecord) => {
      if (call.outcome === 'accepted') opts.log.info({ ocpi: call }, 'ocpi call');
      else opts.log.warn({ ocpi: call }, 'ocpi call failed');
    },
  });
}

/** `{base}/{a}/{b}` with each segment encoded and one slash between base and segments. */
export function moduleUrl(base: string, ...segments: string[]): string {
  return `${base.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
}

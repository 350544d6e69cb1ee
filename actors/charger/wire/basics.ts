// What both OCPP adapters write the same way.
import type { AuthStatus } from '../core/context.ts';
import type { BootStatus, OutboundCall } from '../core/wire.ts';

export const iso = (ms: number) => new Date(ms).toISOString();

export const call = (action: string, payload: Record<string, unknown>): OutboundCall => ({ action, payload });

/** A status from the CSMS as one the charger knows (anything else counts as Invalid). */
export function authStatus(x: unknown): AuthStatus {
  return x === 'Accepted' || x === 'Blocked' || x === 'Expired' || x === 'ConcurrentTx' ? x : 'Invalid';
}

/** BootNotification's answer: the same fields in both versions. */
export function bootResult(p: { status?: unknown; interval?: unknown } | undefined): {
  status: BootStatus;
  interval: number;
} {
  return {
    status: p?.status === 'Accepted' || p?.status === 'Pending' ? p.status : 'Rejected',
    interval: Number(p?.interval) || 0,
  };
}

// What a charger's command.result means for the stored command: its final status (E16), the OCPP
// answer kept as `response`, and the error. The statuses and when each is set: docs/commands.md.
import type { CommandResult } from '../../actors/charger/charger-ports.ts';
import { maskCommand } from './command-secrets.ts';

/**
 * `timed_out`: no outcome before the deadline (the central system or the charger did not answer).
 * `interrupted`: handed to a charger whose engine node stopped before the outcome was recorded;
 * it may have reached the central system, so it is never run again.
 */
export type FinalStatus = 'completed' | 'rejected' | 'failed' | 'timed_out' | 'interrupted';
export type CommandStatus = 'queued' | 'received' | 'sent' | FinalStatus;

export const COMMAND_STATUSES: readonly CommandStatus[] = [
  'queued',
  'received',
  'sent',
  'completed',
  'rejected',
  'failed',
  'timed_out',
  'interrupted',
];

export const OPEN_STATUSES: CommandStatus[] = ['queued', 'received', 'sent'];

export interface Outcome {
  status: FinalStatus;
  response: object | null;
  error: { code: string; description?: string } | null;
}

/** Error codes of a charger that understood the command and declined it. */
const DECLINED = new Set([
  'REJECTED',
  'NOT_AUTHORIZED',
  'NotSupported',
  'INVALID_STATE',
  'UNKNOWN_CONNECTOR',
]);

/** OCPP answer statuses that say no (an answer with one of these is `rejected`, not `completed`). */
const REFUSALS = new Set([
  'Rejected',
  'NotSupported',
  'NotImplemented',
  'Failed',
  'VersionMismatch',
  'Invalid',
  'Blocked',
  'Expired',
  'ConcurrentTx',
  'UnknownMessageId',
  'UnknownVendorId',
]);

/** The status of an OCPP answer, wherever the version puts it. */
function answerStatus(payload: object | undefined): string | undefined {
  const p = payload as
    | {
        status?: unknown;
        idTagInfo?: { status?: unknown };
        idTokenInfo?: { status?: unknown };
        setVariableResult?: { attributeStatus?: unknown }[];
      }
    | undefined;
  const s =
    p?.status ?? p?.idTagInfo?.status ?? p?.idTokenInfo?.status ?? p?.setVariableResult?.[0]?.attributeStatus;
  return typeof s === 'string' ? s : undefined;
}

export function outcomeOf(r: CommandResult): Outcome {
  // An answer that echoes a secret (a proxied GetConfiguration ...) is kept masked.
  const response = r.payload === undefined ? null : maskCommand(r.payload);
  const error = r.error ?? null;
  const status = answerStatus(r.payload);
  if (r.ok) return { status: status && REFUSALS.has(status) ? 'rejected' : 'completed', response, error };
  // RebootRequired: the new value is stored and applies after a reboot (OCPP counts it as done).
  if (status === 'RebootRequired') return { status: 'completed', response, error: null };
  if (r.error?.code === 'Timeout') return { status: 'timed_out', response, error };
  if ((r.error && DECLINED.has(r.error.code)) || (status && REFUSALS.has(status)))
    return { status: 'rejected', response, error };
  return { status: 'failed', response, error };
}

// Operations on a registered charge point that go to the charger itself, sent through the
// central-system node holding the connection over MQTT: the reboot (E23, recorded under a tracking
// id) and any CALL of the charge point's OCPP version an operator asks for (recorded, like every
// frame, in the charge point's message log by the node that sends it).
import { randomUUID } from 'node:crypto';
import { BrokerUnavailableError, type RemoteCaller } from '../central-system/remote-caller.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { OperationStore } from './operation-store.ts';
import { VERSION_PROFILES, isOcppVersion, type OcppVersion } from '../../protocols/ocpp/versions.ts';
import { callPayloadIssue, hasAction, type PayloadIssue } from '../../protocols/ocpp/schema-validator.ts';

/** The soft reset each version understands (its `version_path` is the version profile's `path`). */
const SOFT_RESET: Readonly<Record<OcppVersion, { type: string }>> = {
  'ocpp1.6': { type: 'Soft' },
  'ocpp2.0.1': { type: 'OnIdle' },
  'ocpp2.1': { type: 'OnIdle' },
};

export interface SentOperation {
  tracking_id: string;
  charge_point_id: string;
  ocpp_version: string;
  version_path: string;
  payload_type: string;
  payload: unknown;
  /** The charger's answer (Accepted, Rejected, Scheduled). */
  status: string;
}

export type RebootOutcome =
  | { kind: 'sent'; operation: SentOperation }
  | { kind: 'not_found' }
  | { kind: 'offline' }
  | { kind: 'broker_unavailable' }
  | { kind: 'call_error'; code: string; description: string }
  | { kind: 'closed' }
  | { kind: 'timeout' };

export type CallOutcome =
  | { kind: 'answered'; response: Record<string, unknown> }
  | { kind: 'call_error'; code: string; description: string; details: Record<string, unknown> }
  | { kind: 'not_found' }
  | { kind: 'offline' }
  /** The action is not one of the connected version's (`version` says which that is). */
  | { kind: 'unknown_action'; version: OcppVersion }
  | { kind: 'invalid_payload'; version: OcppVersion; issue: PayloadIssue }
  | { kind: 'broker_unavailable' }
  | { kind: 'closed' }
  | { kind: 'timeout' };

interface Target {
  pk: string;
  version: OcppVersion;
}

export class ChargePointOperations {
  constructor(
    private readonly db: Queryable,
    private readonly operations: OperationStore,
    private readonly caller: RemoteCaller,
    private readonly callTimeoutMs: number,
  ) {}

  /** A soft reset: 1.6 Reset Soft, 2.0.1 / 2.1 Reset OnIdle (the charger restarts once idle). */
  async reboot(orgId: string, chargePointId: string): Promise<RebootOutcome> {
    const cp = await this.#connected(orgId, chargePointId);
    if (typeof cp === 'string') return { kind: cp };
    const version = cp.version;
    const versionPath = VERSION_PROFILES[version].path;
    const payload = SOFT_RESET[version];
    const trackingId = randomUUID();
    await this.operations.create(orgId, trackingId, cp.pk, 'Reset', payload);

    let reply;
    try {
      reply = await this.caller.call(trackingId, chargePointId, 'Reset', payload);
    } catch (err) {
      if (!(err instanceof BrokerUnavailableError)) throw err;
      await this.operations.failed(trackingId, 'Failed', 'message broker not connected');
      return { kind: 'broker_unavailable' };
    }
    switch (reply.outcome) {
      case 'result':
        await this.operations.answered(trackingId, cp.pk, reply.payload);
        return {
          kind: 'sent',
          operation: {
            tracking_id: trackingId,
            charge_point_id: chargePointId,
            ocpp_version: version,
            version_path: versionPath,
            payload_type: 'ResetRequest',
            payload,
            status: String(reply.payload.status),
          },
        };
      case 'error':
        await this.operations.failed(trackingId, 'Failed', `${reply.code}: ${reply.description}`);
        return { kind: 'call_error', code: reply.code, description: reply.description };
      case 'closed':
        await this.operations.failed(trackingId, 'Failed', 'connection closed before the answer');
        return { kind: 'closed' };
      default:
        await this.operations.failed(trackingId, 'TimedOut', `no answer within ${this.callTimeoutMs} ms`);
        return { kind: 'timeout' };
    }
  }

  /**
   * Sends `action` with `payload` to the connected charge point and returns its answer. The payload
   * is checked against the connected version's schema first; a CALLERROR (or an answer breaking
   * the response's schema) comes back as `call_error`.
   */
  async send(orgId: string, chargePointId: string, action: string, payload: unknown): Promise<CallOutcome> {
    const cp = await this.#connected(orgId, chargePointId);
    if (typeof cp === 'string') return { kind: cp };
    if (!hasAction(cp.version, action)) return { kind: 'unknown_action', version: cp.version };
    const issue = callPayloadIssue(cp.version, action, payload);
    if (issue) return { kind: 'invalid_payload', version: cp.version, issue };
    let reply;
    try {
      reply = await this.caller.call(randomUUID(), chargePointId, action, payload);
    } catch (err) {
      if (err instanceof BrokerUnavailableError) return { kind: 'broker_unavailable' };
      throw err;
    }
    switch (reply.outcome) {
      case 'result':
        return { kind: 'answered', response: reply.payload };
      case 'error':
        return {
          kind: 'call_error',
          code: reply.code,
          description: reply.description,
          details: reply.details ?? {},
        };
      case 'closed':
        return { kind: 'closed' };
      default:
        return { kind: 'timeout' };
    }
  }

  /** The charge point of the organization and the version it speaks now, or why there is none. */
  async #connected(orgId: string, chargePointId: string): Promise<Target | 'not_found' | 'offline'> {
    const { rows } = await this.db.query<{ pk: string; is_online: boolean; ocpp_version: string | null }>(
      `SELECT id::text AS pk, is_online, ocpp_version FROM cpo_charge_points
       WHERE organization_id = $1 AND charge_point_id = $2`,
      [orgId, chargePointId],
    );
    const cp = rows[0];
    if (!cp) return 'not_found';
    if (!cp.is_online) return 'offline';
    // The row holds the negotiated version while connected (the write-behind sets it).
    const version = cp.ocpp_version && isOcppVersion(cp.ocpp_version) ? cp.ocpp_version : 'ocpp1.6';
    return { pk: cp.pk, version };
  }
}

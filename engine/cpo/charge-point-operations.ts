// Operations on a registered charge point that go to the charger itself (E23 reboot): recorded
// under a tracking id, sent through the central-system node holding the connection over MQTT.
import { randomUUID } from 'node:crypto';
import { BrokerUnavailableError, type RemoteCaller } from '../central-system/remote-caller.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { OperationStore } from './operation-store.ts';
import { VERSION_PROFILES, isOcppVersion, type OcppVersion } from '../../protocols/ocpp/versions.ts';

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

export class ChargePointOperations {
  constructor(
    private readonly db: Queryable,
    private readonly operations: OperationStore,
    private readonly caller: RemoteCaller,
    private readonly callTimeoutMs: number,
  ) {}

  /** A soft reset: 1.6 Reset Soft, 2.0.1 / 2.1 Reset OnIdle (the charger restarts once idle). */
  async reboot(orgId: string, chargePointId: string): Promise<RebootOutcome> {
    const { rows } = await this.db.query<{ pk: string; is_online: boolean; ocpp_version: string | null }>(
      `SELECT id::text AS pk, is_online, ocpp_version FROM cpo_charge_points
       WHERE organization_id = $1 AND charge_point_id = $2`,
      [orgId, chargePointId],
    );
    const cp = rows[0];
    if (!cp) return { kind: 'not_found' };
    if (!cp.is_online) return { kind: 'offline' };
    const version: OcppVersion =
      cp.ocpp_version && isOcppVersion(cp.ocpp_version) ? cp.ocpp_version : 'ocpp1.6';
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
}

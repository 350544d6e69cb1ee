// Remote control: the CSMS acts on the charger. OCPP 1.6 Core RemoteStart/StopTransaction,
// UnlockConnector, Reset and RemoteTrigger TriggerMessage; 2.0.1 block F: F01-F02 remote start
// (with a TxProfile: K), F03 remote stop, F05 unlock connector, F06 trigger message, and block B's
// B11-B12 reset (the reboot itself is provisioning's).
import type { ChargingProfile } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import type { TriggerTarget } from '../core/wire.ts';
import { boolSetting } from '../core/settings.ts';
import { startable } from '../core/connector-status.ts';
import { authorizeRemote } from './authorization.ts';
import { sendStatus } from './availability.ts';
import { resetReason, scheduleReboot, sendTriggeredBoot } from './provisioning.ts';
import { setRemoteStartProfile } from './smart-charging.ts';
import { reservationVerdict } from './reservation.ts';
import { stopTransaction, tokenAccepted } from './transactions.ts';
import { bumpSeq, hasTransaction } from '../core/transaction.ts';

/** F01/F02: on the connector asked, or the first free one; the token is authorized first when configured. */
export function remoteStart(
  s: Step,
  r: {
    connectorId?: number;
    idTag: string;
    idType?: string;
    remoteStartId?: number;
    profile?: ChargingProfile;
  },
): { status: 'Accepted' | 'Rejected'; connectorId?: number } {
  // H03: a reserved connector starts only for its holder (no group check for a remote start).
  const free = (id: number) => startable(s.connector(id)) && reservationVerdict(s, id, r.idTag) === 'yes';
  const id = r.connectorId ?? s.ctx.connectors.find((c) => free(c.id))?.id;
  if (id === undefined || !free(id)) return { status: 'Rejected' };
  if (r.profile && !setRemoteStartProfile(s, id, r.profile)) return { status: 'Rejected' };
  if (r.remoteStartId !== undefined) s.putConnector({ ...s.connector(id)!, remoteStartId: r.remoteStartId });
  if (r.idType) s.putConnector({ ...s.connector(id)!, authorizedType: r.idType });
  if (boolSetting(s.ctx, 'AuthorizeRemoteTxRequests')) authorizeRemote(s, id, r.idTag);
  else tokenAccepted(s, id, r.idTag, 'remote', r.idType);
  return { status: 'Accepted', connectorId: id };
}

/** F03: stops the connector's transaction (the adapter finds the connector by its version's id). */
export function remoteStop(s: Step, connectorId: number | undefined): 'Accepted' | 'Rejected' {
  const c = connectorId === undefined ? undefined : s.connector(connectorId);
  if (!c?.tx) return 'Rejected';
  stopTransaction(s, c.id, 'remote');
  return 'Accepted';
}

/** hard/soft: stop the transactions now, then reboot; idle: reboot once no transaction runs. */
export function reset(s: Step, kind: 'hard' | 'soft' | 'idle'): 'Accepted' | 'Scheduled' {
  if (kind === 'idle' && hasTransaction(s)) {
    s.patch({ reset: 'idle' });
    resetReason(s, 'ScheduledReset');
    return 'Scheduled';
  }
  resetReason(s, 'RemoteReset');
  for (const c of s.ctx.connectors)
    if (c.tx) stopTransaction(s, c.id, kind === 'hard' ? 'hard_reset' : 'soft_reset');
  s.patch({ reset: 'now' });
  scheduleReboot(s);
  return 'Accepted';
}

/** F05: unlocking ends a transaction on the connector. */
export function unlock(s: Step, connectorId: number): 'Unlocked' | 'UnknownConnector' {
  const c = s.connector(connectorId);
  if (!c) return 'UnknownConnector';
  if (c.tx) stopTransaction(s, connectorId, 'unlock');
  return 'Unlocked';
}

/** F06: sends the message asked for now (after the answer); connectorId 0 / undefined: all. */
export function trigger(s: Step, what: TriggerTarget, connectorId?: number): 'Accepted' | 'Rejected' {
  if (connectorId !== undefined && connectorId !== 0 && !s.connector(connectorId)) return 'Rejected';
  switch (what) {
    case 'BootNotification':
      sendTriggeredBoot(s);
      return 'Accepted';
    case 'Heartbeat':
      s.send(s.wire.heartbeat());
      return 'Accepted';
    case 'StatusNotification':
      sendStatus(s, connectorId);
      return 'Accepted';
    // F06: MeterValues is a MeterValues request, in a transaction too (F06.FR.06 samples what
    // SampledDataCtrlr.TxUpdatedMeasurands names); TransactionEvent is the transaction's Updated.
    case 'MeterValues':
      for (const c of connectorId ? [s.connector(connectorId)!] : s.ctx.connectors)
        s.send(s.wire.meterValues(s.ctx, c, s.now));
      return 'Accepted';
    case 'TransactionEvent':
      for (const c of connectorId ? [s.connector(connectorId)!] : s.ctx.connectors) {
        if (!c.tx) continue;
        const call = s.wire.txUpdated(s.ctx, c, 'trigger', s.now);
        if (call) {
          s.send(call);
          bumpSeq(s, c.id);
        }
      }
      return 'Accepted';
  }
}

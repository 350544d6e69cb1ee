// ChargerOps over a Step: what the CSMS's calls do to the charger, independent of the version.
import type { ChargingProfile } from './charger-context.ts';
import type { ChargerOps, OutboundCall, TriggerTarget } from './ocpp-adapter.ts';
import type { Step } from './charger-step.ts';
import { applyLocalList } from './charger-auth.ts';
import { checkSetting, intSetting, withSetting } from './charger-settings.ts';
import { profileLimitW, wattsToAmps } from './charger-power.ts';
import {
  bumpSeq,
  refreshAllCharging,
  setStatus,
  stopTransaction,
  tokenAccepted,
  hasTransaction,
} from './charger-logic.ts';
import { boolSetting } from './charger-settings.ts';

export function chargerOps(s: Step): ChargerOps {
  return {
    get ctx() {
      return s.ctx;
    },
    now: s.now,
    connector: (id) => s.connector(id),
    connectorByTx(transactionId) {
      return s.ctx.connectors.find((c) => {
        if (!c.tx) return false;
        if (typeof transactionId === 'string') return c.tx.id === transactionId;
        return s.ctx.txIds[c.tx.ref] === transactionId;
      });
    },

    changeSetting(key, value) {
      const checked = checkSetting(key, value);
      if (!checked.ok) return checked.status;
      s.patch({ settings: withSetting(s.ctx, key, checked.value) });
      if (key === 'HeartbeatInterval') {
        s.patch({ heartbeatAt: s.now + Number(checked.value) * 1000 });
        s.raises.push({ type: 'internal.rearmHeartbeat' });
      }
      if (key === 'MeterValueSampleInterval' && hasTransaction(s))
        s.patch({ meterAt: s.now + Math.max(1, Number(checked.value)) * 1000 });
      if (key === 'AuthorizationCacheEnabled' && checked.value === 'false') s.patch({ authCache: {} });
      return 'Accepted';
    },

    clearCache() {
      s.patch({ authCache: {} });
      return 'Accepted';
    },

    updateLocalList(update) {
      const r = applyLocalList(s.ctx, update);
      if (r.list) s.patch({ localList: r.list });
      return r.status;
    },

    remoteStart({ connectorId, idTag, idType, remoteStartId, profile }) {
      const free = (id: number) => {
        const c = s.connector(id);
        return (
          !!c &&
          !c.tx &&
          !c.inoperative &&
          (c.status === 'Available' || c.status === 'Preparing' || c.status === 'Finishing')
        );
      };
      const id = connectorId ?? s.ctx.connectors.find((c) => free(c.id))?.id;
      if (id === undefined || !free(id)) return { status: 'Rejected' };
      if (profile) {
        if (profile.purpose !== 'Tx') return { status: 'Rejected' };
        s.patch({
          profiles: [
            ...s.ctx.profiles.filter((p) => p.id !== profile.id),
            { ...profile, connectorId: id, txRef: undefined },
          ],
        });
      }
      if (remoteStartId !== undefined) s.putConnector({ ...s.connector(id)!, remoteStartId });
      if (idType) s.putConnector({ ...s.connector(id)!, authorizedType: idType });
      if (boolSetting(s.ctx, 'AuthorizeRemoteTxRequests'))
        s.send(s.adapter.authorize(idTag), { connectorId: id, idTag, remote: true });
      else tokenAccepted(s, id, idTag, 'remote', idType);
      return { status: 'Accepted', connectorId: id };
    },

    remoteStop(c) {
      if (!c?.tx) return 'Rejected';
      stopTransaction(s, c.id, 'remote');
      return 'Accepted';
    },

    reset(kind) {
      if (kind === 'idle' && hasTransaction(s)) {
        s.patch({ reset: 'idle' });
        return 'Scheduled';
      }
      for (const c of s.ctx.connectors)
        if (c.tx) stopTransaction(s, c.id, kind === 'hard' ? 'hard_reset' : 'soft_reset');
      s.patch({ reset: 'now' });
      return 'Accepted';
    },

    changeAvailability(connectorId, operative) {
      if (connectorId !== 0 && !s.connector(connectorId)) return 'Rejected';
      const ids = connectorId === 0 ? s.ctx.connectors.map((c) => c.id) : [connectorId];
      let scheduled = false;
      if (connectorId === 0) {
        const status = operative ? 'Available' : 'Unavailable';
        if (s.ctx.chargerStatus !== status) {
          s.patch({ chargerStatus: status });
          const zero = s.adapter.statusNotification(s.ctx, 0, status, undefined, 'NoError', s.now);
          if (zero) s.call(zero);
        }
      }
      for (const id of ids) {
        const c = s.connector(id)!;
        s.putConnector({ ...c, inoperative: !operative });
        if (c.tx) scheduled = scheduled || !operative;
        else if (!operative && c.status !== 'Faulted') setStatus(s, id, 'Unavailable');
        else if (operative && c.status === 'Unavailable')
          setStatus(s, id, c.plugged ? 'Preparing' : 'Available');
      }
      return scheduled ? 'Scheduled' : 'Accepted';
    },

    unlock(connectorId) {
      const c = s.connector(connectorId);
      if (!c) return 'UnknownConnector';
      if (c.tx) stopTransaction(s, connectorId, 'unlock');
      return 'Unlocked';
    },

    setProfile(p: ChargingProfile) {
      if (p.connectorId !== 0 && !s.connector(p.connectorId)) return 'Rejected';
      if (p.stackLevel > intSetting(s.ctx, 'ChargeProfileMaxStackLevel')) return 'Rejected';
      if (p.periods.length === 0 || p.periods.length > intSetting(s.ctx, 'ChargingScheduleMaxPeriods'))
        return 'Rejected';
      let profile = p;
      if (p.purpose === 'Tx') {
        const c = s.connector(p.connectorId);
        if (!c?.tx) return 'Rejected';
        profile = { ...p, txRef: c.tx.ref };
      }
      const kept = s.ctx.profiles.filter(
        (x) =>
          x.id !== p.id &&
          !(x.stackLevel === p.stackLevel && x.purpose === p.purpose && x.connectorId === p.connectorId),
      );
      if (kept.length >= intSetting(s.ctx, 'MaxChargingProfilesInstalled')) return 'Rejected';
      s.patch({ profiles: [...kept, profile] });
      refreshAllCharging(s);
      return 'Accepted';
    },

    clearProfiles(c) {
      const matches = (p: ChargingProfile) =>
        (c.id === undefined || p.id === c.id) &&
        (c.connectorId === undefined || p.connectorId === c.connectorId) &&
        (c.purpose === undefined || p.purpose === c.purpose) &&
        (c.stackLevel === undefined || p.stackLevel === c.stackLevel);
      const kept = s.ctx.profiles.filter((p) => !matches(p));
      if (kept.length === s.ctx.profiles.length) return false;
      s.patch({ profiles: kept });
      refreshAllCharging(s);
      return true;
    },

    compositeLimit(connectorId, asked) {
      if (connectorId !== 0 && !s.connector(connectorId)) return undefined;
      const rated = s.ctx.model.max_power_kw * 1000;
      const watts = Math.min(rated, profileLimitW(s.ctx, s.connector(connectorId), s.now));
      const unit = asked === 'A' ? 'A' : 'W';
      return { unit, limit: Math.floor(unit === 'A' ? wattsToAmps(s.ctx, watts) : watts) };
    },

    trigger(what: TriggerTarget, connectorId?: number) {
      if (connectorId !== undefined && connectorId !== 0 && !s.connector(connectorId)) return 'Rejected';
      const targets = connectorId ? [s.connector(connectorId)!] : s.ctx.connectors;
      switch (what) {
        case 'BootNotification':
          s.send(s.adapter.bootNotification(s.ctx));
          return 'Accepted';
        case 'Heartbeat':
          s.send(s.adapter.heartbeat());
          return 'Accepted';
        case 'StatusNotification':
          if (connectorId === undefined || connectorId === 0) {
            const zero = s.adapter.statusNotification(
              s.ctx,
              0,
              s.ctx.chargerStatus,
              undefined,
              'NoError',
              s.now,
            );
            if (zero) s.send(zero);
          }
          for (const c of connectorId ? targets : s.ctx.connectors) {
            const call = s.adapter.statusNotification(s.ctx, c.id, c.status, undefined, c.errorCode, s.now);
            if (call) s.send(call);
          }
          return 'Accepted';
        case 'MeterValues':
        case 'TransactionEvent':
          for (const c of targets) {
            if (c.tx) {
              const call = s.adapter.txUpdated(s.ctx, c, 'trigger', s.now);
              if (call) {
                s.send(call);
                bumpSeq(s, c.id);
              }
            } else if (what === 'MeterValues') s.send(s.adapter.meterValues(s.ctx, c, s.now));
          }
          return 'Accepted';
      }
    },

    callAfterAnswer(call: OutboundCall) {
      // Sends leave after the answer: the machine answers the CSMS before it commits the Step's sends.
      s.call(call);
    },
  };
}

// Smart charging: the CSMS limits the power of a connector or of the whole charger with stacked
// charging profiles. OCPP 1.6 SmartCharging; 2.0.1 block K: K01 SetChargingProfile, K05 remote
// start with a charging profile, K08 GetCompositeSchedule, K10 ClearChargingProfile. The limit
// itself is computed in core/power.ts.
import type { ChargingProfile, ExternalLimitSource } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import { intSetting } from '../core/settings.ts';
import { profileLimitW, wattsToAmps } from '../core/power.ts';
import { refreshAllCharging } from './transactions.ts';

/** ClearChargingProfile's criteria in the charger's terms; `purpose: null` matches no profile. */
export interface ProfileCriteria {
  id?: number;
  connectorId?: number;
  purpose?: ChargingProfile['purpose'] | null;
  stackLevel?: number;
}

/** K01: installs a profile (replacing one of the same id, or of the same stack level and purpose). */
export function setProfile(s: Step, p: ChargingProfile): 'Accepted' | 'Rejected' {
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
      x.source !== undefined ||
      (x.id !== p.id &&
        !(x.stackLevel === p.stackLevel && x.purpose === p.purpose && x.connectorId === p.connectorId)),
  );
  if (kept.filter((x) => !x.source).length >= intSetting(s.ctx, 'MaxChargingProfilesInstalled'))
    return 'Rejected';
  s.patch({ profiles: [...kept, profile] });
  refreshAllCharging(s);
  return 'Accepted';
}

/** K05: a TxProfile that comes with a remote start: it waits for the transaction the start begins. */
export function setRemoteStartProfile(s: Step, connectorId: number, p: ChargingProfile): boolean {
  if (p.purpose !== 'Tx') return false;
  s.patch({
    profiles: [...s.ctx.profiles.filter((x) => x.id !== p.id), { ...p, connectorId, txRef: undefined }],
  });
  return true;
}

/** K09 GetChargingProfiles' criteria in the charger's terms (every one given must match). */
export interface ProfileQuery {
  /** undefined: every connector; 0: the charger-wide profiles. */
  connectorId?: number;
  ids?: number[];
  purpose?: ChargingProfile['purpose'] | null;
  stackLevel?: number;
  /** The sources asked for: the CSMS's own profiles are 'CSO', external limits their source. */
  sources?: string[];
}

/** The source of the CSMS's own profiles (K09 chargingLimitSource); external limits name theirs. */
export const PROFILE_SOURCE = 'CSO';

/** At most this many profiles per ReportChargingProfiles (the rest follow, tbc on all but the last). */
export const PROFILES_PER_REPORT = 8;

/**
 * K09: the installed profiles matching the query, grouped as the reports go: one group per
 * connector (EVSE) and source, each cut into pages of PROFILES_PER_REPORT.
 */
export function profilePages(
  s: Step,
  q: ProfileQuery,
): { connectorId: number; source: string; profiles: ChargingProfile[] }[] {
  const found = s.ctx.profiles.filter(
    (p) =>
      (!q.sources?.length || q.sources.includes(p.source ?? PROFILE_SOURCE)) &&
      (q.connectorId === undefined || p.connectorId === q.connectorId) &&
      (!q.ids?.length || q.ids.includes(p.id)) &&
      (q.purpose === undefined || p.purpose === q.purpose) &&
      (q.stackLevel === undefined || p.stackLevel === q.stackLevel),
  );
  const groups = new Map<string, { connectorId: number; source: string; list: ChargingProfile[] }>();
  for (const p of found) {
    const source = p.source ?? PROFILE_SOURCE;
    const key = `${p.connectorId} ${source}`;
    const g = groups.get(key) ?? { connectorId: p.connectorId, source, list: [] };
    g.list.push(p);
    groups.set(key, g);
  }
  const pages: { connectorId: number; source: string; profiles: ChargingProfile[] }[] = [];
  const ordered = [...groups.values()].sort(
    (a, b) => a.connectorId - b.connectorId || a.source.localeCompare(b.source),
  );
  for (const { connectorId, source, list } of ordered)
    for (let i = 0; i < list.length; i += PROFILES_PER_REPORT)
      pages.push({ connectorId, source, profiles: list.slice(i, i + PROFILES_PER_REPORT) });
  return pages;
}

/** K10: removes the profiles matching every criterion given; true when any was removed. */
export function clearProfiles(s: Step, c: ProfileCriteria): boolean {
  // External limits are not the CSMS's to clear (K10): only the API releases them.
  const matches = (p: ChargingProfile) =>
    p.source === undefined &&
    (c.id === undefined || p.id === c.id) &&
    (c.connectorId === undefined || p.connectorId === c.connectorId) &&
    (c.purpose === undefined || p.purpose === c.purpose) &&
    (c.stackLevel === undefined || p.stackLevel === c.stackLevel);
  const kept = s.ctx.profiles.filter((p) => !matches(p));
  if (kept.length === s.ctx.profiles.length) return false;
  s.patch({ profiles: kept });
  refreshAllCharging(s);
  return true;
}

/**
 * K08: the composite limit on a connector (0 = charger) now, in the unit asked (W by default);
 * undefined for an unknown connector.
 */
export function compositeLimit(
  s: Step,
  connectorId: number,
  asked?: string,
): { unit: 'A' | 'W'; limit: number } | undefined {
  if (connectorId !== 0 && !s.connector(connectorId)) return undefined;
  const rated = s.ctx.model.max_power_kw * 1000;
  const watts = Math.min(rated, profileLimitW(s.ctx, s.connector(connectorId), s.now));
  const unit = asked === 'A' ? 'A' : 'W';
  return { unit, limit: Math.floor(unit === 'A' ? wattsToAmps(s.ctx, watts) : watts) };
}

/** The id an external limit's profile has: negative, out of the CSMS's way (one per connector and source). */
const externalId = (connectorId: number, source: ExternalLimitSource) =>
  -(connectorId * 10 + ['EMS', 'SO', 'Other'].indexOf(source) + 1);

/**
 * K11-K13: an external limit (W) on a connector (0: the whole charger) from `source`, or its release
 * (null). It limits the power at once with the CSMS's profiles (the lowest wins) and the CSMS is told
 * (2.x NotifyChargingLimit, ClearedChargingLimit). False when there was nothing to release.
 */
export function externalLimit(
  s: Step,
  connectorId: number,
  source: ExternalLimitSource,
  limitW: number | null,
  gridCritical?: boolean,
): boolean {
  const id = externalId(connectorId, source);
  const others = s.ctx.profiles.filter((p) => p.id !== id);
  if (limitW === null) {
    if (others.length === s.ctx.profiles.length) return false;
    s.patch({ profiles: others });
    refreshAllCharging(s);
    const cleared = s.wire.chargingLimitCleared(connectorId, source);
    if (cleared) s.call(cleared);
    return true;
  }
  const profile: ChargingProfile = {
    id,
    connectorId,
    stackLevel: 0,
    purpose: 'Max',
    unit: 'W',
    periods: [{ startPeriod: 0, limit: limitW }],
    startAt: s.now,
    source,
  };
  s.patch({ profiles: [...others, profile] });
  refreshAllCharging(s);
  const notify = s.wire.chargingLimitSet(profile, gridCritical);
  if (notify) s.call(notify);
  return true;
}

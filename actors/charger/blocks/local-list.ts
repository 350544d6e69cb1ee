// Local authorization list management: the CSMS keeps a list of tokens on the charger, by
// version number. OCPP 1.6 LocalAuthListManagement (SendLocalList, GetLocalListVersion); 2.0.1
// block D: D01 send a full or differential list, D02 get its version.
import type { AuthStatus, ChargerContext } from '../core/context.ts';
import type { Step } from '../core/step.ts';
import { boolSetting, intSetting } from '../core/settings.ts';

export interface LocalListUpdate {
  version: number;
  full: boolean;
  /** status undefined removes the entry (differential update without idTagInfo); group: 1.6 parentIdTag, 2.x groupIdToken. */
  entries: { idTag: string; status?: AuthStatus; group?: string }[];
}

export type LocalListOutcome = 'Accepted' | 'Failed' | 'VersionMismatch' | 'NotSupported';

export function localListEnabled(s: Step): boolean {
  return boolSetting(s.ctx, 'LocalAuthListEnabled');
}

/** D01: applies a full or differential update, or says why not (the list is unchanged then). */
export function updateLocalList(s: Step, u: LocalListUpdate): LocalListOutcome {
  const ctx = s.ctx;
  if (!localListEnabled(s)) return 'NotSupported';
  if (u.entries.length > intSetting(ctx, 'SendLocalListMaxLength')) return 'Failed';
  if (!u.full && u.version <= ctx.localList.version) return 'VersionMismatch';
  const tags: ChargerContext['localList']['tags'] = u.full ? {} : { ...ctx.localList.tags };
  const groups: Record<string, string> = u.full ? {} : { ...ctx.localList.groups };
  for (const e of u.entries) {
    if (e.status) tags[e.idTag] = e.status;
    else delete tags[e.idTag];
    if (e.status && e.group) groups[e.idTag] = e.group;
    else delete groups[e.idTag];
  }
  if (Object.keys(tags).length > intSetting(ctx, 'LocalAuthListMaxLength')) return 'Failed';
  const grouped = Object.keys(groups).length > 0;
  s.patch({ localList: { version: u.version, tags, ...(grouped ? { groups } : {}) } });
  return 'Accepted';
}

/** D02. */
export function localListVersion(s: Step): number {
  return s.ctx.localList.version;
}

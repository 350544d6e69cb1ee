// Local authorization: the local list first, then the authorization cache, each when enabled.
import type { AuthStatus, ChargerContext } from './charger-context.ts';
import { boolSetting, intSetting } from './charger-settings.ts';

export type LocalAuth = { status: AuthStatus; source: 'local_list' | 'cache' } | undefined;

export function localAuthorization(ctx: ChargerContext, idTag: string): LocalAuth {
  if (boolSetting(ctx, 'LocalAuthListEnabled')) {
    const status = ctx.localList.tags[idTag];
    if (status) return { status, source: 'local_list' };
  }
  if (boolSetting(ctx, 'AuthorizationCacheEnabled')) {
    const status = ctx.authCache[idTag];
    if (status) return { status, source: 'cache' };
  }
  return undefined;
}

const CACHE_MAX = 32;

/** The cache after remembering a CSMS answer (bounded: the oldest entry goes first). */
export function cached(ctx: ChargerContext, idTag: string, status: AuthStatus): Record<string, AuthStatus> {
  if (!boolSetting(ctx, 'AuthorizationCacheEnabled')) return ctx.authCache;
  const next = { ...ctx.authCache };
  delete next[idTag];
  next[idTag] = status;
  const keys = Object.keys(next);
  if (keys.length > CACHE_MAX) delete next[keys[0]];
  return next;
}

export interface LocalListUpdate {
  version: number;
  full: boolean;
  /** status undefined removes the entry (differential update without idTagInfo). */
  entries: { idTag: string; status?: AuthStatus }[];
}

export type LocalListOutcome = 'Accepted' | 'Failed' | 'VersionMismatch' | 'NotSupported';

export function applyLocalList(
  ctx: ChargerContext,
  u: LocalListUpdate,
): { status: LocalListOutcome; list?: ChargerContext['localList'] } {
  if (!boolSetting(ctx, 'LocalAuthListEnabled')) return { status: 'NotSupported' };
  if (u.entries.length > intSetting(ctx, 'SendLocalListMaxLength')) return { status: 'Failed' };
  if (!u.full && u.version <= ctx.localList.version) return { status: 'VersionMismatch' };
  const tags: Record<string, AuthStatus> = u.full ? {} : { ...ctx.localList.tags };
  for (const e of u.entries) {
    if (e.status) tags[e.idTag] = e.status;
    else delete tags[e.idTag];
  }
  if (Object.keys(tags).length > intSetting(ctx, 'LocalAuthListMaxLength')) return { status: 'Failed' };
  return { status: 'Accepted', list: { version: u.version, tags } };
}

// Authorization: may this token charge here? OCPP 1.6 Core Authorize, the authorization cache and
// ClearCache; 2.0.1 block C: C01 authorization with a card, C10 the authorization cache, C11
// clearing it, C12 start with a cached id (LocalPreAuthorize), C13/C14 the local authorization
// list offline and online, C15 an unknown id offline (AllowOfflineTxForUnknownId), C09 a token of
// the same group (1.6 parentIdTag, 2.0.1 groupIdToken) as the one that started a transaction
// stops it: the groups come from the local list and the cache (so this works offline), or from
// the CSMS's Authorize answer when neither knows the token.
import type { AuthStatus, CallMeta, ChargerContext } from '../core/context.ts';
import type { CommandOf } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import type { Answer } from '../core/wire.ts';
import { usable } from '../core/connector-status.ts';
import { boolSetting } from '../core/settings.ts';
import { stopTransaction, tokenAccepted } from './transactions.ts';
import { driverTariff } from './tariffs.ts';
import { reservationVerdict, tokenGroup } from './reservation.ts';

declare module '../core/context.ts' {
  interface ChargerContext {
    /** The group of each cached token that has one (kept with authCache, bounded the same). */
    authCacheGroups?: Record<string, string>;
  }
  interface CallMeta {
    /** An Authorize asked for a token's group: it stops the connector's transaction if the group is the starter's. */
    groupStop?: boolean;
  }
  interface Transaction {
    /** The token that stopped the transaction when it is not the one that started it (C09). */
    stoppedBy?: string;
  }
}

export type LocalAuth = { status: AuthStatus; source: 'local_list' | 'cache' } | undefined;

/** A token's group as the local list (first) or the cache knows it, each when enabled. */
export function localGroup(ctx: ChargerContext, idTag: string): string | undefined {
  if (boolSetting(ctx, 'LocalAuthListEnabled') && ctx.localList.tags[idTag])
    return ctx.localList.groups?.[idTag];
  if (boolSetting(ctx, 'AuthorizationCacheEnabled') && ctx.authCache[idTag])
    return ctx.authCacheGroups?.[idTag];
  return undefined;
}

/** The local list first, then the authorization cache, each when enabled. */
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

/** Remembers a CSMS answer and the token's group in the cache (bounded: the oldest entry goes first). */
function cache(s: Step, idTag: string, status: AuthStatus, group: string | undefined): void {
  if (!boolSetting(s.ctx, 'AuthorizationCacheEnabled')) return;
  const next = { ...s.ctx.authCache };
  delete next[idTag];
  next[idTag] = status;
  const keys = Object.keys(next);
  const dropped = keys.length > CACHE_MAX ? keys[0] : undefined;
  if (dropped !== undefined) delete next[dropped];
  const had = s.ctx.authCacheGroups;
  let groups = had;
  if (group !== undefined || (had && (idTag in had || (dropped !== undefined && dropped in had)))) {
    groups = { ...had };
    if (group !== undefined) groups[idTag] = group;
    else delete groups[idTag];
    if (dropped !== undefined) delete groups[dropped];
  }
  s.patch({ authCache: next, authCacheGroups: groups && Object.keys(groups).length ? groups : undefined });
}

/** C11 ClearCache. */
export function clearCache(s: Step): 'Accepted' | 'Rejected' {
  s.patch({ authCache: {}, authCacheGroups: undefined });
  return 'Accepted';
}

/**
 * A token presented at a connector: stops the connector's transaction when it is the same token;
 * otherwise authorizes it from the local list, the cache, or the CSMS (see the 1.6 settings
 * LocalAuthListEnabled, AuthorizationCacheEnabled, LocalPreAuthorize, LocalAuthorizeOffline).
 */
export function presentToken(s: Step, e: CommandOf<'PRESENT_TOKEN'>): void {
  const c = s.connector(e.connectorId);
  if (!c) return s.fail(e.commandId, 'PRESENT_TOKEN', 'UNKNOWN_CONNECTOR', `no connector ${e.connectorId}`);
  if (c.tx) {
    if (c.tx.idTag === e.idTag) return stopByToken(s, c.id, e.idTag, e.commandId);
    return stopByGroup(s, c.id, e.idTag, e.commandId);
  }
  if (!usable(c))
    return s.fail(e.commandId, 'PRESENT_TOKEN', 'INVALID_STATE', `connector ${c.id} is ${c.status}`);
  // H03: a reserved connector takes its holder's token; a token of the holder's group only once the CSMS says so.
  const verdict = reservationVerdict(s, c.id, e.idTag);
  if (verdict === 'no' || (verdict === 'ask' && !s.online)) return refuseReserved(s, e.commandId, c.id);
  if (verdict === 'ask') {
    s.send(s.wire.authorize(e.idTag), { connectorId: c.id, idTag: e.idTag, commandId: e.commandId });
    return;
  }
  const local = localAuthorization(s.ctx, e.idTag);
  const decide = (status: string, source: string) => {
    if (status === 'Accepted') tokenAccepted(s, c.id, e.idTag, 'authorized');
    s.result(e.commandId, 'PRESENT_TOKEN', {
      ok: status === 'Accepted',
      action: 'Authorize',
      payload: { status, source },
      ...(status === 'Accepted' ? {} : { error: { code: 'NOT_AUTHORIZED', description: `token ${status}` } }),
    });
  };
  if (local && local.source === 'local_list' && local.status !== 'Accepted')
    return decide(local.status, local.source);
  if (s.online) {
    if (local?.status === 'Accepted' && boolSetting(s.ctx, 'LocalPreAuthorize'))
      return decide('Accepted', local.source);
    s.send(s.wire.authorize(e.idTag), { connectorId: c.id, idTag: e.idTag, commandId: e.commandId });
    return;
  }
  if (local && boolSetting(s.ctx, 'LocalAuthorizeOffline')) return decide(local.status, local.source);
  if (!local && boolSetting(s.ctx, 'AllowOfflineTxForUnknownId')) return decide('Accepted', 'offline');
  decide('Invalid', 'offline');
}

/** Asks the CSMS for a remote start's token (AuthorizeRemoteTxRequests). */
export function authorizeRemote(s: Step, connectorId: number, idTag: string): void {
  s.send(s.wire.authorize(idTag), { connectorId, idTag, remote: true });
}

/** The CSMS answered an Authorize: cache it, start or arm the connector, report PRESENT_TOKEN. */
export function authorizeAnswered(
  s: Step,
  meta: CallMeta,
  ok: boolean,
  payload: Answer<'Authorize'> | undefined,
  error?: { code: string; description?: string },
): boolean {
  const status = ok ? s.wire.authorizeResult(payload!) : undefined;
  const group = ok ? s.wire.authorizeGroup(payload!) : undefined;
  if (status && meta.idTag) cache(s, meta.idTag, status, group);
  if (meta.groupStop && meta.connectorId !== undefined && meta.idTag) {
    const c = s.connector(meta.connectorId);
    const same =
      status === 'Accepted' && c?.tx && group !== undefined && group === localGroup(s.ctx, c.tx.idTag);
    if (same) stopByToken(s, c.id, meta.idTag, meta.commandId);
    else refuseStop(s, meta.commandId);
    return true;
  }
  if (status === 'Accepted' && meta.idTag) {
    tokenGroup(s, meta.idTag, group);
    if (meta.connectorId !== undefined && reservationVerdict(s, meta.connectorId, meta.idTag) !== 'yes') {
      refuseReserved(s, meta.commandId, meta.connectorId);
      return true;
    }
  }
  if (status === 'Accepted' && meta.connectorId !== undefined && meta.idTag)
    driverTariff(s, meta.connectorId, meta.idTag, s.wire.authorizeTariff?.(payload!));
  if (status === 'Accepted' && meta.connectorId !== undefined)
    tokenAccepted(
      s,
      meta.connectorId,
      meta.idTag!,
      meta.remote ? 'remote' : 'authorized',
      meta.remote ? s.connector(meta.connectorId)?.authorizedType : undefined,
    );
  if (ok)
    s.result(meta.commandId, 'PRESENT_TOKEN', {
      ok: status === 'Accepted',
      action: 'Authorize',
      payload,
      ...(status === 'Accepted' ? {} : { error: { code: 'NOT_AUTHORIZED', description: `token ${status}` } }),
    });
  else s.result(meta.commandId, 'PRESENT_TOKEN', { ok: false, action: 'Authorize', error });
  return true;
}

/** The transaction stops for this token (the one that started it, or one of its group). */
function stopByToken(s: Step, connectorId: number, idTag: string, commandId: string | undefined): void {
  const c = s.connector(connectorId)!;
  if (c.tx && c.tx.idTag !== idTag) s.putConnector({ ...c, tx: { ...c.tx, stoppedBy: idTag } });
  stopTransaction(s, connectorId, 'local');
  s.result(commandId, 'PRESENT_TOKEN', { ok: true, payload: { status: 'Accepted', stopped: true } });
}

/**
 * C09 / 1.6 parentIdTag: another token stops the transaction when it is valid and of the
 * starter's group. Known to the local list or cache: decided here (offline too); otherwise the
 * CSMS is asked (online), and an unknown token offline is refused.
 */
function stopByGroup(s: Step, connectorId: number, idTag: string, commandId: string | undefined): void {
  const c = s.connector(connectorId)!;
  const group = localGroup(s.ctx, c.tx!.idTag);
  const local = localAuthorization(s.ctx, idTag);
  if (group === undefined) return refuseStop(s, commandId);
  if (local) {
    if (local.status === 'Accepted' && localGroup(s.ctx, idTag) === group)
      return stopByToken(s, connectorId, idTag, commandId);
    if (!s.online || local.source === 'local_list') return refuseStop(s, commandId);
  }
  if (!s.online) return refuseStop(s, commandId);
  s.send(s.wire.authorize(idTag), { connectorId, idTag, commandId, groupStop: true });
}

function refuseStop(s: Step, commandId: string | undefined): void {
  s.fail(commandId, 'PRESENT_TOKEN', 'INVALID_STATE', 'another token runs this transaction');
}

/** H03: the connector is held for another token (or kept free for a connector-0 reservation). */
function refuseReserved(s: Step, commandId: string | undefined, connectorId: number): void {
  s.fail(
    commandId,
    'PRESENT_TOKEN',
    'INVALID_STATE',
    `connector ${connectorId} is reserved for another token`,
  );
}

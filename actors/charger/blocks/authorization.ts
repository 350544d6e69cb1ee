// Authorization: may this token charge here? OCPP 1.6 Core Authorize, the authorization cache and
// ClearCache; 2.0.1 block C: C01 authorization with a card, C10 the authorization cache, C11
// clearing it, C12 start with a cached id (LocalPreAuthorize), C13/C14 the local authorization
// list offline and online, C15 an unknown id offline (AllowOfflineTxForUnknownId).
import type { AuthStatus, CallMeta, ChargerContext } from '../core/context.ts';
import type { CommandOf } from '../core/events.ts';
import type { Step } from '../core/step.ts';
import type { Payload } from '../core/wire.ts';
import { usable } from '../core/connector-status.ts';
import { boolSetting } from '../core/settings.ts';
import { stopTransaction, tokenAccepted } from './transactions.ts';
import { reservationVerdict, tokenGroup } from './reservation.ts';

export type LocalAuth = { status: AuthStatus; source: 'local_list' | 'cache' } | undefined;

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

/** The cache after remembering a CSMS answer (bounded: the oldest entry goes first). */
function cached(ctx: ChargerContext, idTag: string, status: AuthStatus): Record<string, AuthStatus> {
  if (!boolSetting(ctx, 'AuthorizationCacheEnabled')) return ctx.authCache;
  const next = { ...ctx.authCache };
  delete next[idTag];
  next[idTag] = status;
  const keys = Object.keys(next);
  if (keys.length > CACHE_MAX) delete next[keys[0]];
  return next;
}

/** C11 ClearCache. */
export function clearCache(s: Step): 'Accepted' | 'Rejected' {
  s.patch({ authCache: {} });
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
    if (c.tx.idTag !== e.idTag)
      return s.fail(e.commandId, 'PRESENT_TOKEN', 'INVALID_STATE', 'another token runs this transaction');
    stopTransaction(s, c.id, 'local');
    return s.result(e.commandId, 'PRESENT_TOKEN', {
      ok: true,
      payload: { status: 'Accepted', stopped: true },
    });
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
  payload: Payload,
  error?: { code: string; description?: string },
): boolean {
  const status = ok ? s.wire.authorizeResult(payload) : undefined;
  if (status && meta.idTag) s.patch({ authCache: cached(s.ctx, meta.idTag, status) });
  if (status === 'Accepted' && meta.idTag) {
    tokenGroup(s, meta.idTag, s.wire.authorizeGroup(payload));
    if (meta.connectorId !== undefined && reservationVerdict(s, meta.connectorId, meta.idTag) !== 'yes') {
      refuseReserved(s, meta.commandId, meta.connectorId);
      return true;
    }
  }
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

/** H03: the connector is held for another token (or kept free for a connector-0 reservation). */
function refuseReserved(s: Step, commandId: string | undefined, connectorId: number): void {
  s.fail(
    commandId,
    'PRESENT_TOKEN',
    'INVALID_STATE',
    `connector ${connectorId} is reserved for another token`,
  );
}

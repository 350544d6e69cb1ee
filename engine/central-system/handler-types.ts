// What a central-system message handler is given: the connection it serves and the engine's parts.
import type { OcppVersion } from '../../protocols/ocpp/index.ts';
import type { OcppAction, OcppRequest, OcppResponse } from '../../protocols/ocpp/ocpp-types.ts';
import type { CsmsStore } from './csms-store.ts';
import type { WriteBehind } from './write-behind.ts';

export interface ConnectionInfo {
  pk: string;
  chargePointId: string;
  version: OcppVersion;
  useStatusNotification0: boolean;
  connectorCount: number | null;
}

export interface HandlerDeps {
  store: CsmsStore;
  writer: WriteBehind;
  heartbeatIntervalSeconds: number;
}

/**
 * A charger-initiated action of version `V` answered: its payload is the action's request (already
 * checked against the official schema of the connection's version), its answer the action's response.
 */
export type Handler<V extends OcppVersion, A extends OcppAction<V>> = (
  conn: ConnectionInfo,
  payload: OcppRequest<V, A>,
  deps: HandlerDeps,
) => OcppResponse<V, A> | Promise<OcppResponse<V, A>>;

/** A version's handlers, each typed by its action; an action not here is answered NotImplemented. */
export type Handlers<V extends OcppVersion> = { readonly [A in OcppAction<V>]?: Handler<V, A> };

/**
 * Any version's handlers, as a connection dispatches to them by action name: the payload passed is
 * the one the endpoint validated against that action's schema, which is what the handler's type says.
 */
export type HandlerTable = Readonly<
  Record<string, ((conn: ConnectionInfo, payload: never, deps: HandlerDeps) => unknown) | undefined>
>;

/** Charger-initiated actions whose answer is an empty object: acknowledged, nothing kept. */
export const acknowledge = (): Record<string, never> => ({});

// What a central-system message handler is given: the connection it serves and the engine's parts.
import type { OcppVersion } from '../../protocols/ocpp/index.ts';
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

/** Payloads are already checked against the official schema of the connection's version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Handler = (conn: ConnectionInfo, payload: any, deps: HandlerDeps) => unknown;

/** Charger-initiated actions whose answer is an empty object: acknowledged, nothing kept. */
export const acknowledge: Handler = () => ({});

// One charger's WebSocket on the central system: frames go through the shared RpcEndpoint (strict
// validation against the official schemas of the negotiated version) to the version's handlers.
import type { WebSocket } from 'ws';
import { RpcEndpoint, RpcError, type FrameObserver, type OcppVersion } from '../../protocols/ocpp/index.ts';
import type { Logger } from '../platform/log/logger.ts';
import type { ConnectionInfo, HandlerDeps, HandlerTable } from './handler-types.ts';
import { OCPP16_HANDLERS } from './ocpp16-handlers.ts';
import { OCPP2_HANDLERS } from './ocpp2-handlers.ts';
import { OCPP21_HANDLERS } from './ocpp21-handlers.ts';

/** Each version's handlers: a version without an entry does not compile. */
const HANDLERS: Readonly<Record<OcppVersion, HandlerTable>> = {
  'ocpp1.6': OCPP16_HANDLERS,
  'ocpp2.0.1': OCPP2_HANDLERS,
  'ocpp2.1': OCPP21_HANDLERS,
};

export class CsmsConnection {
  readonly endpoint: RpcEndpoint;
  /** Cleared by each keepalive sweep, set by any frame or pong. */
  alive = true;
  readonly connectedAt = new Date();

  constructor(
    readonly info: ConnectionInfo,
    readonly ws: WebSocket,
    deps: HandlerDeps,
    log: Logger,
    callTimeoutMs: number,
    /** The message log's observer of this connection's frames (seen from the central system). */
    onFrame?: FrameObserver,
  ) {
    const handlers = HANDLERS[info.version];
    this.endpoint = new RpcEndpoint({
      version: info.version,
      callTimeoutMs,
      send: (text) => ws.send(text),
      onCall: (action, payload) => {
        const handler = handlers[action];
        if (!handler) throw new RpcError('NotImplemented', `${action} is not handled by the central system`);
        // Validated by the endpoint against the action's schema: the handler's payload type.
        return handler(info, payload as never, deps);
      },
      onSchemaError: (e) => log.debug({ chargePointId: info.chargePointId, ...e }, 'OCPP schema violation'),
      onBadFrame: (e) => log.debug({ chargePointId: info.chargePointId, code: e.code }, 'OCPP bad frame'),
      onFrame,
    });
    ws.on('message', (data, isBinary) => {
      this.alive = true;
      // OCPP-J is text frames only; a binary frame is still fed so the peer gets a framing error.
      this.endpoint.receive(isBinary ? Buffer.from(data as Buffer).toString('utf8') : data.toString());
    });
    ws.on('pong', () => {
      this.alive = true;
    });
  }
}

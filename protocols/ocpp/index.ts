// OCPP-J RPC for every version we speak: framing, error codes, schema validation, and the
// endpoint that ties them together. No I/O here: the transport is a `send` function and `receive`.
//
//   const socket = openChargerSocket(opts, {                   // engine/ocpp/ws-client.ts
//     onOpen: () => rpc.call('BootNotification', payload).then(...),
//     onMessage: (text) => rpc.receive(text),
//     onClose: () => rpc.close(new Error('connection closed')),  // one endpoint per connection
//     onFailure: (f) => ...,
//   });
//   const rpc = new RpcEndpoint({ version, send: (text) => socket.send(text), onCall: handleCsmsCall });
//
// onCall returns the CALLRESULT payload or throws `new RpcError('NotSupported')`; whatever arrives
// for an action the version does not have is answered NotImplemented before it reaches onCall.
export type { OcppVersion, VersionProfile, ErrorSpelling } from './versions.ts';
export { OCPP_VERSIONS, SUBPROTOCOLS, VERSION_PROFILES, isOcppVersion } from './versions.ts';
export { RpcError, RpcTimeoutError, RpcClosedError } from './rpc-error.ts';
export { ERROR_CODES, errorCodeFor } from './error-codes.ts';
export type { RpcErrorCode, Ocpp16ErrorCode, Ocpp20ErrorCode } from './error-codes.ts';
export { MessageType, parseFrame, serializeCall, serializeResult, serializeError } from './rpc-frame.ts';
export type {
  Payload,
  RpcFrame,
  CallFrame,
  CallResultFrame,
  CallErrorFrame,
  CallResultErrorFrame,
  SendFrame,
  BadFrame,
} from './rpc-frame.ts';
export { validateCall, validateResult, hasAction, actionsOf, callPayloadIssue } from './schema-validator.ts';
export type { PayloadIssue } from './schema-validator.ts';
export { RpcEndpoint } from './rpc-endpoint.ts';
export type { RpcEndpointOptions, CallOptions, RpcClock } from './rpc-endpoint.ts';
export type {
  CallOutcome,
  FrameHooks,
  FrameObserver,
  SchemaErrorReport,
  BadFrameReport,
} from './frame-hooks.ts';

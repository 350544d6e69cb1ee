export type { OcppVersion } from './versions.ts';
export { SUBPROTOCOLS, isOcppVersion } from './versions.ts';
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
export { validateCall, validateResult, hasAction, actionsOf } from './schema-validator.ts';
export { RpcEndpoint } from './rpc-endpoint.ts';
export type {
  RpcEndpointOptions,
  CallOptions,
  RpcClock,
  SchemaErrorReport,
  BadFrameReport,
} from './rpc-endpoint.ts';

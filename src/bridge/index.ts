export { methods } from './methods';
export * from './methods/app';
export * from './methods/batch';
export * from './methods/plugins';
export * from './methods/replay';
export * from './methods/replayRequest';
export * from './methods/config';
export * from './methods/workspace';
export { defineMethods, NoParams, type MethodSpec, type MethodSpecs } from './methodSpec';
export {
  eventTopics,
  ProgressEventSchema,
  type BridgeEvent,
  type EventPayload,
  type EventTopic,
  type EventTopics,
  type ProgressEvent,
} from './events';
export {
  BRIDGE_ERROR_CODES,
  BRIDGE_ERROR_LIMITS,
  capEchoedText,
  BridgeErrorSchema,
  BridgeMethodError,
  bridgeError,
  type BridgeError,
  type BridgeErrorCode,
} from './errors';
export {
  createBridgeDispatcher,
  createDispatcherFor,
  DEFAULT_MAX_REQUEST_BYTES,
  type BridgeDispatcher,
  type BridgeHandlers,
  type DispatcherOptions,
  type EventSink,
  type HandlerContext,
  type HandlerFor,
  type HandlersFor,
} from './dispatcher';
export {
  describeSchemaErrors,
  createSchemaCompiler,
  type SchemaProblem,
  type CompiledValidator,
} from './schemaValidator';
export {
  WireRequestSchema,
  WEBSOCKET_BRIDGE_PATH,
  TOKEN_QUERY_PARAM,
  type WireRequest,
  type WireRequestId,
  type WireResponse,
} from './wire';
export {
  PIECE_METHOD,
  PIECES_MARKER,
  UPLOAD_MARKER,
  UPLOAD_METHOD,
  type PiecedAnswer,
  type PieceMethodName,
  type UploadedParams,
  type UploadMethodName,
} from './piecedAnswer';
export { MAX_UPLOAD_BYTES } from './uploadStore';
export { ANSWER_PIECE_BYTES, BRIDGE_ANSWER_BYTES } from './answerPieceStore';
export { IPC_EVENT_CHANNEL, IPC_METHOD_CHANNEL_PREFIX, METHOD_NAME_PATTERN, ipcChannelForMethod } from './ipcChannels';
export type {
  BridgeMethods,
  BridgeOutcome,
  InspectorApi,
  MethodName,
  PreloadBridgeApi,
  PreloadGlobalName,
  RequestOf,
  ResponseOf,
  SpecRequest,
  SpecResponse,
} from './types';

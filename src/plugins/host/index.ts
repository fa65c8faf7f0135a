/** Public API of the engine host (parent side) and its protocol; engineHostMain.ts is the child entry, not exported. */
export {
  EngineHost,
  describeExit,
  type EngineHostCallbacks,
  type EngineHostOptions,
  type PluginLogEntry,
  type PluginLogLevel,
  type CallOptions,
} from './engineHost';
export { EngineHostError, isEngineHostError, type EngineHostErrorCode } from './engineHostError';
export { resolveEngineHostEntry, BUILT_ENGINE_HOST_FILE, BUILT_SHIM_DIR, type EngineHostEntry } from './hostEntry';
export {
  PLUGIN_ENV_ALLOW_LIST,
  PLUGIN_ENV_DENY_LIST,
  buildPluginEnv,
  prepareLaneDirs,
  resolveEngineNodePath,
  type LaneDirs,
  type PreparedLaneDirs,
} from './laneEnvironment';
export {
  DEFAULT_ENGINE_DEADLINES,
  createRemoteFactory,
  deadlineFor,
  resolveDeadlines,
  type EngineDeadlines,
} from './remoteEngine';
export {
  forkTransport,
  type EngineHostExit,
  type EngineHostSpawnSpec,
  type EngineHostTransport,
  type EngineHostTransportFactory,
} from './transport';
export * as engineHostProtocol from './protocol';
export type { RegisterReport, EntryLoadError, EntryFormat } from './protocol';
export { MessageRefTable, type MessageRef } from './messageRefTable';
export {
  DEFAULT_HOST_CODEC,
  HOST_CODEC_ENV,
  HOST_CODEC_NAMES,
  hostCodecFromEnv,
  isHostCodecName,
  parseHostCodec,
  type HostCodecName,
} from './channelCodec';
export {
  encodeWire,
  decodeWire,
  WireFormatError,
  type EncodeContext,
  type DecodeContext,
  type WireSide,
} from './wireCodec';
export { markHostProvided, type HostProvidedName } from './hostProvidedFunctions';
export {
  HOST_GRANT_NAMES,
  cleanHostGrants,
  describeHostGrants,
  missingHostGrants,
  nodePermissionSupport,
  parseHostGrants,
  permissionArgv,
  planHostSandbox,
  unionHostGrants,
  type HostGrantName,
  type HostGrants,
  type HostSandboxPlan,
  type NodePermissionSupport,
} from './hostPermissions';
export { ACCESS_DENIED_CODE, describeDenial, type AccessDenial } from './accessDenied';

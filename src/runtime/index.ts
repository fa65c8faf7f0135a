/**
 * Public API of the context runtime: registry and slot resolution, quarantine, compat (E2 strict-validator retry,
 * E3 acceptedHostParams projection), host requirements, runtimeSettings, precheck and compaction-settings math,
 * and system-prompt additions. Every export carries a one-line doc comment at its definition.
 */
export { createContextRuntimeCore } from './createContextRuntime';
export type {
  ContextRuntime,
  ContextRuntimeOptions,
  QuarantineContextEngineInput,
  ResolveContextEngineContext,
  ResolvedEngineDescription,
} from './contextRuntimeTypes';
export type {
  RuntimeEvent,
  RuntimeEventListener,
  RuntimeLogEvent,
  RuntimeLogLevel,
  RuntimeQuarantineEvent,
} from './runtimeEvents';
export {
  CORE_CONTEXT_ENGINE_OWNER,
  PUBLIC_SDK_CONTEXT_ENGINE_OWNER,
  RESERVED_CONTEXT_ENGINE_ID,
  pluginContextEngineOwner,
  type ContextEngineRegistration,
  type RegisterContextEngineOptions,
  type RegisterContextEngineResult,
} from './registry';
export {
  lifecycleForRegistrationMode,
  type ContextEnginePluginApi,
  type CreatePluginApiOptions,
  type PluginApiHandle,
  type PluginDiagnostic,
  type PluginRegistrationMode,
} from './pluginApi';
export { contextEngineSelectionSource, resolveContextEngineSlotId } from './slotSelection';
export { DEFAULT_CONTEXT_ENGINE_ID, describeQuarantineReason, formatQuarantineLogLine } from './quarantineStore';
export {
  DOWNGRADED_TO_LEGACY_REASON,
  UNRESOLVED_FALLBACK_INFO,
  cannedFallbackResult,
  wrapContextEngineWithRuntimeQuarantine,
  type QuarantineProxyOptions,
} from './quarantineProxy';
export {
  CONTEXT_ENGINE_ABORTED_MESSAGE,
  abortErrorForSignal,
  createAbortError,
  isContextEngineAbortError,
} from './abortErrors';
export { CONTEXT_ENGINE_COMPAT_MARKER } from './compatLayer';
export {
  STRICT_VALIDATOR_DROPPABLE_KEYS,
  detectRejectedKeys,
  rejectedKeyMessagePatterns,
  wrapContextEngineWithStrictValidatorRetry,
} from './strictValidatorRetry';
export {
  CONTEXT_ENGINE_HOST_PARAM_KEYS,
  projectContextEngineHostParams,
  wrapContextEngineWithHostParamProjection,
} from './hostParamProjection';
export { selectCompatMode, wrapContextEngineCompat } from './wrapContextEngineCompat';
export { describeContextEngineContractError } from '../contract/validateEngine';
export {
  CLI_COMPACTION_CONTEXT_ENGINE_HOST_CAPABILITIES,
  CODEX_APP_SERVER_CONTEXT_ENGINE_HOST,
  ContextEngineHostUnsupportedError,
  DEFAULT_CLI_CONTEXT_ENGINE_HOST_CAPABILITIES,
  OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
  agentHarnessContextEngineHost,
  assertContextEngineHostSupport,
  cliCompactionContextEngineHost,
  cliContextEngineHost,
  evaluateContextEngineHostSupport,
  formatContextEngineHostUnsupportedMessage,
  shouldAssertContextEngineHostSupport,
  type ContextEngineHostSupportArgs,
  type ContextEngineHostSupportEvaluation,
} from './hostSupport';
export {
  ContextEngineRuntimeSettingsUnavailableError,
  ContextEngineRuntimeSettingsUnsupportedError,
  buildContextEngineRuntimeSettings,
  normalizeRuntimeSettingsReason,
  type BuildContextEngineRuntimeSettingsParams,
} from './runtimeSettings';
export {
  SYSTEM_PROMPT_CACHE_BOUNDARY,
  normalizeStructuredPromptSection,
  normalizeSystemPromptAddition,
  prependSystemPromptAddition,
} from './systemPromptAddition';
export {
  LEGACY_PASS_THROUGH_COMPACT_REASON,
  LEGACY_PASS_THROUGH_ENGINE_INFO,
  createLegacyPassThroughEngine,
} from './legacyPassThroughEngine';
export {
  PRECHECK_OVERFLOW_ERROR_MESSAGE,
  computePromptPrecheck,
  truncationCharsNeeded,
  type PromptPrecheckInput,
  type PromptPrecheckResult,
  type PromptPrecheckRoute,
} from './precheck';
export {
  DEFAULT_COMPACTION_ENABLED,
  DEFAULT_COMPACTION_KEEP_RECENT_TOKENS,
  DEFAULT_COMPACTION_RESERVE_TOKENS,
  DEFAULT_COMPACTION_RESERVE_TOKENS_FLOOR,
  MIN_PROMPT_BUDGET_TOKENS,
  MAX_COMPACTION_RESERVE_RATIO,
  minPromptBudgetFor,
  quarterWindowReserveCap,
  resolveCompactionSettings,
  type CompactionSettings,
  type CompactionSettingsInput,
  type ReserveRule,
} from './compactionSettings';
export { sanitizeForLog } from './sanitizeForLog';

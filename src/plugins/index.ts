/**
 * Public API of src/plugins: discovery and manifest/config validation, consent, the plugin loader (engine hosts
 * with OpenClaw plugin-sdk compatibility) and the doctor.
 */
export * from './types';
export {
  discoverPlugins,
  findStaleConfigEntries,
  defaultStateDir,
  defaultBundledPluginsDir,
  type DiscoverPluginsOptions,
} from './discoverPlugins';
export { readPluginPackage, looksLikePluginDir, MANIFEST_FILE } from './readPluginPackage';
export { resolvePluginEntries, entryFormatOf, FALLBACK_ENTRY_NAMES } from './resolvePluginEntries';
export {
  PLUGIN_KINDS,
  PluginManifestSchema,
  PackageJsonSchema,
  validateManifestShape,
  validatePackageJsonShape,
} from './manifestSchema';
export {
  compilePluginConfigSchema,
  validatePluginConfig,
  type CompiledConfigSchema,
  type PluginConfigValidation,
} from './pluginConfigValidation';
export { formatSchemaErrors, violationText, type SchemaViolation } from './formatSchemaErrors';
export {
  hashPluginPackage,
  snapshotPluginPackage,
  type HashablePlugin,
  type PackageHashOptions,
  type PackageSnapshot,
} from './hashPluginPackage';
export {
  allowExecuteConsent,
  appConfigDir,
  confirmedConsent,
  createConsentStore,
  defaultConsentFile,
  denyAllConsent,
  noConsentMessage,
  type ConfirmedPlugin,
  type ConsentDecision,
  type ConsentGrant,
  type ConsentStore,
  type ConsentSubject,
  type PluginConsent,
} from './consent';
export {
  loadPlugin,
  describeEntryError,
  type LoadPluginOptions,
  type LoadedPlugin,
  type LoadedPluginStatus,
  type PluginLoadDiagnostic,
  type PluginSandboxInfo,
  type PluginRuntimeTarget,
} from './loadPlugin';
export type { HookInvocation, RunHooksReply } from './pluginHooks';
export { hookBlockedReason, isHookEra2026_8 } from './hookPolicy';
export * from './doctor';
export * from './host';
export * from './sdk';

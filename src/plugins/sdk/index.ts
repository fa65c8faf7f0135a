/** The openclaw/plugin-sdk values ContextScope provides to plugins inside an engine host. */
export {
  PLUGIN_SDK_EXPORTS,
  PLUGIN_SDK_GLOBAL,
  PLUGIN_SDK_SHIM_FILES,
  createOpenClawPluginSdk,
  installPluginSdkGlobal,
  type MemoryPromptParams,
  type OpenClawPluginSdk,
  type PluginEntryDefinition,
  type PluginSdkBridge,
  type PluginSdkSpecifier,
} from './pluginSdk';
export { maskSecret, redactSensitiveText, type RedactOptions } from './redactSensitiveText';

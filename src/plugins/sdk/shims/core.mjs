// openclaw/plugin-sdk/core as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk/core is only available inside a ContextScope engine host');
export const {
  buildMemorySystemPromptAddition,
  prepareMemorySystemPromptAddition,
  delegateCompactionToRuntime,
  definePluginEntry,
  redactSensitiveText,
} = sdk.core;
export default sdk.core;

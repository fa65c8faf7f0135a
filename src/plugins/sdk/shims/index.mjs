// openclaw/plugin-sdk as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk is only available inside a ContextScope engine host');
export const {
  buildMemorySystemPromptAddition,
  prepareMemorySystemPromptAddition,
  delegateCompactionToRuntime,
  definePluginEntry,
  redactSensitiveText,
} = sdk.root;
export default sdk.root;

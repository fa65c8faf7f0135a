// openclaw/plugin-sdk/plugin-entry as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk/plugin-entry is only available inside a ContextScope engine host');
export const { definePluginEntry } = sdk.pluginEntry;
export default sdk.pluginEntry;

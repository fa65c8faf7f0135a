// openclaw/plugin-sdk/logging-core as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk/logging-core is only available inside a ContextScope engine host');
export const { redactSensitiveText } = sdk.loggingCore;
export default sdk.loggingCore;

// openclaw/plugin-sdk/session-store-runtime as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk)
  throw new Error('openclaw/plugin-sdk/session-store-runtime is only available inside a ContextScope engine host');
export const { loadTranscriptEventsSync, readTranscriptStatsSync } = sdk.sessionStoreRuntime;
export default sdk.sessionStoreRuntime;

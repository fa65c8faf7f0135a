// openclaw/plugin-sdk/sqlite-runtime as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk/sqlite-runtime is only available inside a ContextScope engine host');
export const { resolveOpenClawAgentSqlitePath, tableExists } = sdk.sqliteRuntime;
export default sdk.sqliteRuntime;

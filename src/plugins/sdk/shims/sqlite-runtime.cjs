'use strict';
// openclaw/plugin-sdk/sqlite-runtime as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
// Explicit exports.X assignments so Node's CommonJS lexer sees the names when ESM code imports this file.
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk/sqlite-runtime is only available inside a ContextScope engine host');
exports.resolveOpenClawAgentSqlitePath = sdk.sqliteRuntime.resolveOpenClawAgentSqlitePath;
exports.tableExists = sdk.sqliteRuntime.tableExists;
// the default import, as the .mjs twin has it (jiti, which loads ES modules in the confined host on Node 20, reads it)
exports.default = sdk.sqliteRuntime;

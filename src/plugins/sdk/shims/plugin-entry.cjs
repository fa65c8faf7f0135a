'use strict';
// openclaw/plugin-sdk/plugin-entry as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
// Explicit exports.X assignments so Node's CommonJS lexer sees the names when ESM code imports this file.
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk/plugin-entry is only available inside a ContextScope engine host');
exports.definePluginEntry = sdk.pluginEntry.definePluginEntry;
// the default import, as the .mjs twin has it (jiti, which loads ES modules in the confined host on Node 20, reads it)
exports.default = sdk.pluginEntry;

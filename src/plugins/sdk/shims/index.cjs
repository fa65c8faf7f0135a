'use strict';
// openclaw/plugin-sdk as provided inside a ContextScope engine host (implementation: src/plugins/sdk/pluginSdk.ts).
// Explicit exports.X assignments so Node's CommonJS lexer sees the names when ESM code imports this file.
const sdk = globalThis[Symbol.for('contextscope.openclaw.pluginSdk')];
if (!sdk) throw new Error('openclaw/plugin-sdk is only available inside a ContextScope engine host');
exports.buildMemorySystemPromptAddition = sdk.root.buildMemorySystemPromptAddition;
exports.prepareMemorySystemPromptAddition = sdk.root.prepareMemorySystemPromptAddition;
exports.delegateCompactionToRuntime = sdk.root.delegateCompactionToRuntime;
exports.definePluginEntry = sdk.root.definePluginEntry;
exports.redactSensitiveText = sdk.root.redactSensitiveText;
// the default import, as the .mjs twin has it (jiti, which loads ES modules in the confined host on Node 20, reads it)
exports.default = sdk.root;

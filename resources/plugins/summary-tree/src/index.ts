// summary-tree — an OpenClaw context engine that folds old turns into a tree of summaries and sends
// [summaries…, fresh tail] to the model. Entry point: OpenClaw loads this TypeScript file directly
// (package.json → openclaw.extensions) through its transpiling loader.

import { definePluginEntry } from 'openclaw/plugin-sdk/plugin-entry';

import { resolveConfig } from './config.ts';
import { ENGINE_ID, createSummaryTreeEngine } from './engine.ts';
import type { LlmCapability, OpenClawPluginApi } from './types.ts';

export default definePluginEntry({
  id: 'summary-tree',
  name: 'Summary Tree',
  description: 'Summarizes old turns into a tree of leaf and parent summaries and owns compaction.',
  register(api: OpenClawPluginApi) {
    const resolvePath = api.resolvePath;
    const config = resolveConfig(api.pluginConfig, resolvePath ? (input) => resolvePath(input) : undefined);
    const hostLlm = api.runtime?.llm;
    const runtimeLlm: LlmCapability | undefined =
      hostLlm && typeof hostLlm.complete === 'function' ? hostLlm : undefined;

    // The factory runs on every resolution: each engine instance gets its own in-memory store.
    api.registerContextEngine(ENGINE_ID, () => createSummaryTreeEngine({ config, logger: api.logger, runtimeLlm }));

    api.logger.info(
      `summary-tree: registered context engine "${ENGINE_ID}" (summarizer=${config.summarizer}` +
        `${config.summarizer !== 'deterministic' ? `, host llm ${runtimeLlm ? 'available' : 'not available'}` : ''}, ` +
        `state ${config.persist ? config.stateDir : 'in memory only'})`,
    );
  },
});

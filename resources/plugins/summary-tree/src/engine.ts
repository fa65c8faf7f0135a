// The summary-tree ContextEngine. It owns compaction: OpenClaw's built-in compactor is switched off while this
// engine is selected, and /compact, overflow recovery and the per-turn threshold all run compactTree() on the
// engine's own store. The session transcript itself is never rewritten.
//
// Each method is one module's function over the shared EngineContext: bootstrapSession.ts, sessionCalls.ts
// (ingest, afterTurn, assemble, compact; thresholds in thresholdCompaction.ts) and subagents.ts.

import { bootstrapSession } from './bootstrapSession.ts';
import { createEngineContext } from './engineContext.ts';
import type { SummaryTreeEngineDeps } from './engineContext.ts';
import { afterTurn, assemble, compactSession, ingestMessage, ingestMessages } from './sessionCalls.ts';
import { onSubagentEnded, prepareSubagentSpawn } from './subagents.ts';
import type { ContextEngine } from './types.ts';

export type { SummaryTreeEngineDeps } from './engineContext.ts';

export const ENGINE_ID = 'summary-tree';
export const ENGINE_VERSION = '1.0.0';

export function createSummaryTreeEngine(deps: SummaryTreeEngineDeps): ContextEngine {
  const ctx = createEngineContext(deps);
  const { store } = ctx;

  return {
    info: {
      id: ENGINE_ID,
      name: 'Summary Tree',
      version: ENGINE_VERSION,
      ownsCompaction: true,
      turnMaintenanceMode: 'foreground',
    },

    async bootstrap(params) {
      return bootstrapSession(ctx, params);
    },

    async maintain() {
      return {
        changed: false,
        bytesFreed: 0,
        rewrittenEntries: 0,
        reason: 'summary-tree keeps its summaries in its own store; the transcript is not rewritten',
      };
    },

    async ingest(params) {
      return ingestMessage(ctx, params);
    },

    async ingestBatch(params) {
      return ingestMessages(ctx, params);
    },

    async afterTurn(params) {
      await afterTurn(ctx, params);
    },

    async assemble(params) {
      return assemble(ctx, params);
    },

    async compact(params) {
      return compactSession(ctx, params);
    },

    async prepareSubagentSpawn(params) {
      return prepareSubagentSpawn(ctx, params);
    },

    async onSubagentEnded(params) {
      await onSubagentEnded(ctx, params);
    },

    async dispose() {
      await store.flushAll();
      store.clear();
    },
  };
}

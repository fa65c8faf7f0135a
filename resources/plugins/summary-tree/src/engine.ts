// The summary-tree ContextEngine. It owns compaction: OpenClaw's built-in compactor is switched off while this
// engine is selected, and /compact, overflow recovery and the per-turn threshold all run compactTree() on the
// engine's own store. The session transcript itself is never rewritten.

import { assembleContext } from './assembleContext.ts';
import { compactTree, planRoots } from './compactTree.ts';
import type { CompactTreePlan } from './compactTree.ts';
import type { SummaryTreeConfig } from './config.ts';
import { readTranscriptMessages, transcriptExists } from './readTranscriptMessages.ts';
import type { TranscriptCursor } from './readTranscriptMessages.ts';
import { SessionStore } from './sessionStore.ts';
import { SessionTree, renderSummaryMessage } from './sessionTree.ts';
import { createSummarizer } from './summarizer.ts';
import type {
  AgentMessage,
  CompactResult,
  ContextEngine,
  LlmCapability,
  PluginLogger,
  RuntimeContext,
} from './types.ts';

export const ENGINE_ID = 'summary-tree';
export const ENGINE_VERSION = '1.0.0';

export interface SummaryTreeEngineDeps {
  config: SummaryTreeConfig;
  logger: PluginLogger;
  /** api.runtime.llm captured at register time; a per-call runtimeContext.llm takes precedence. */
  runtimeLlm?: LlmCapability;
}

interface CompactRequest {
  tokenBudget: number;
  force: boolean;
  currentTokenCount?: number;
  runtimeContext?: RuntimeContext;
  signal?: AbortSignal;
  customInstructions?: string;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : undefined;
}

function sameCursor(a: TranscriptCursor | undefined, b: TranscriptCursor): boolean {
  return (
    a !== undefined &&
    a.file === b.file &&
    a.dev === b.dev &&
    a.ino === b.ino &&
    a.offset === b.offset &&
    a.headHash === b.headHash &&
    a.leafId === b.leafId &&
    a.entryCount === b.entryCount &&
    a.everyEntryHasId === b.everyEntryHasId
  );
}

function planTokens(plan: CompactTreePlan): number {
  return planRoots(plan).reduce((sum, n) => sum + n.tokens, 0) + plan.raw.reduce((sum, m) => sum + m.tokens, 0);
}

/**
 * First contact with a session the store knows nothing about (no transcript to bootstrap from, e.g. a session
 * whose file did not exist yet): take the host's history as the starting point. Once the store holds anything,
 * afterTurn is the only source — the host's history pipeline may have rewritten messages (sanitized, trimmed,
 * repaired), and re-ingesting those rewritten copies would duplicate them.
 */
function ingestOnFirstContact(tree: SessionTree, messages: AgentMessage[]): number {
  if (tree.messageCount > 0) return 0;
  let added = 0;
  for (const message of messages) if (tree.append(message)) added++;
  return added;
}

export function createSummaryTreeEngine(deps: SummaryTreeEngineDeps): ContextEngine {
  const { config, logger } = deps;
  const store = new SessionStore({ dir: config.stateDir, persist: config.persist, logger });
  const summarizer = createSummarizer({
    mode: config.summarizer,
    maxTokens: config.summaryMaxTokens,
    model: config.llmModel,
    logger,
  });

  const llmFor = (runtimeContext?: RuntimeContext): LlmCapability | undefined => {
    const perCall = runtimeContext?.llm;
    return perCall && typeof perCall.complete === 'function' ? perCall : deps.runtimeLlm;
  };

  const budgetFrom = (...candidates: unknown[]): number => {
    for (const candidate of candidates) {
      const value = positive(candidate);
      if (value !== undefined) return value;
    }
    return config.tokenBudget;
  };

  async function maybeCompact(tree: SessionTree, request: CompactRequest): Promise<CompactResult> {
    const tokensBefore = tree.totalTokens();
    const trigger = Math.floor(request.tokenBudget * config.contextThreshold);
    // The host's live count includes what we cannot see (system prompt, tools); never answer "under target"
    // while the host says it is over.
    const observed = Math.max(tokensBefore, request.currentTokenCount ?? 0);
    if (!request.force && observed <= trigger) {
      return {
        ok: true,
        compacted: false,
        reason: `below threshold: ${observed} of ${trigger} tokens (${config.contextThreshold} × ${request.tokenBudget})`,
      };
    }

    const plan = await compactTree(tree, {
      // On a small model the configured tail could fill the whole budget: cap it at half the trigger.
      freshTailTokens: Math.min(config.freshTailTokens, Math.floor(trigger / 2)),
      leafChunkTokens: config.leafChunkTokens,
      maxLeavesBeforeCondense: config.maxLeavesBeforeCondense,
      targetTokens: trigger,
      summarizer,
      ctx: {
        llm: llmFor(request.runtimeContext),
        signal: request.signal,
        customInstructions: request.customInstructions,
      },
    });
    const tokensAfter = planTokens(plan);
    if (plan.created.length === 0) {
      return {
        ok: true,
        compacted: false,
        reason: 'nothing to compact: every unsummarized message is in the fresh tail',
      };
    }
    if (tokensAfter >= tokensBefore) {
      return {
        ok: true,
        compacted: false,
        reason: `summaries (${tokensAfter} tokens) would not be smaller than what they replace (${tokensBefore} tokens)`,
      };
    }

    tree.commit(plan);
    const summary = tree
      .activeRoots()
      .map((node) => {
        const content = renderSummaryMessage(node).content;
        return Array.isArray(content) && content[0]?.type === 'text' ? content[0].text : '';
      })
      .join('\n\n');
    return {
      ok: true,
      compacted: true,
      result: {
        summary,
        tokensBefore,
        tokensAfter,
        details: {
          leafCount: tree.leafCount(),
          depth: tree.depth(),
          createdNodes: plan.created,
          freshTailMessages: tree.raw.length,
        },
      },
    };
  }

  /** Threshold compaction after new messages arrived; failures are logged, the raw tail just keeps growing. */
  async function compactAfterIngest(tree: SessionTree, request: CompactRequest, when: string): Promise<void> {
    try {
      const result = await maybeCompact(tree, request);
      if (result.compacted && result.result) {
        logger.info(
          `summary-tree: ${tree.sessionId}: compacted after ${when}, ${result.result.tokensBefore} → ` +
            `${result.result.tokensAfter} tokens (${tree.leafCount()} leaves, depth ${tree.depth()}).`,
        );
      }
    } catch (error) {
      logger.warn(`summary-tree: ${tree.sessionId}: compaction after ${when} failed: ${errorText(error)}`);
    }
  }

  return {
    info: {
      id: ENGINE_ID,
      name: 'Summary Tree',
      version: ENGINE_VERSION,
      ownsCompaction: true,
      turnMaintenanceMode: 'foreground',
    },

    async bootstrap(params) {
      const file = params.sessionFile;
      if (typeof file !== 'string' || file === '') return { bootstrapped: false, reason: 'no sessionFile was given' };
      if (!transcriptExists(file)) return { bootstrapped: false, reason: `no transcript at ${file}` };
      return store.withLock(params.sessionId, async () => {
        const tree = await store.get(params.sessionId, params.sessionKey);
        let read;
        try {
          // Only what was appended since the last bootstrap of this file (everything on the first one).
          read = await readTranscriptMessages(file, tree.transcript);
        } catch (error) {
          return { bootstrapped: false, reason: `could not read ${file}: ${errorText(error)}` };
        }
        if (read.skippedLines > 0) {
          logger.warn(`summary-tree: ${file}: skipped ${read.skippedLines} line(s) that are not JSON.`);
        }
        logger.debug?.(
          `summary-tree: ${file}: ${read.mode === 'full' ? 'read the whole file' : 'read the appended part'}, ` +
            `${read.bytesRead} byte(s) from offset ${read.mode === 'full' ? 0 : (tree.transcript?.offset ?? 0)}` +
            `${read.restartReason ? ` (${read.restartReason})` : ''}.`,
        );
        if (!sameCursor(tree.transcript, read.cursor)) tree.setTranscriptCursor(read.cursor);
        let imported = 0;
        for (const message of read.messages) if (tree.append(message, false)) imported++;
        await compactAfterIngest(
          tree,
          {
            tokenBudget: budgetFrom(params.runtimeContext?.tokenBudget),
            force: false,
            runtimeContext: params.runtimeContext,
          },
          'bootstrap',
        );
        await store.save(tree);
        return { bootstrapped: true, importedMessages: imported };
      });
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
      return store.withLock(params.sessionId, async () => {
        const tree = await store.get(params.sessionId, params.sessionKey);
        return { ingested: tree.append(params.message) };
      });
    },

    async ingestBatch(params) {
      return store.withLock(params.sessionId, async () => {
        const tree = await store.get(params.sessionId, params.sessionKey);
        let ingestedCount = 0;
        for (const message of params.messages) if (tree.append(message)) ingestedCount++;
        await store.save(tree);
        return { ingestedCount };
      });
    },

    async afterTurn(params) {
      await store.withLock(params.sessionId, async () => {
        const tree = await store.get(params.sessionId, params.sessionKey);
        const newMessages = params.messages.slice(Math.max(0, params.prePromptMessageCount));
        for (const message of newMessages) tree.append(message);
        // Heartbeat turns are periodic polls; not worth a summarization pass.
        if (params.isHeartbeat !== true) {
          await compactAfterIngest(
            tree,
            {
              tokenBudget: budgetFrom(params.tokenBudget, params.runtimeContext?.tokenBudget),
              force: false,
              runtimeContext: params.runtimeContext,
            },
            'turn',
          );
        }
        await store.save(tree);
      });
    },

    async assemble(params) {
      return store.withLock(params.sessionId, async () => {
        const tree = await store.get(params.sessionId, params.sessionKey);
        const adopted = ingestOnFirstContact(tree, Array.isArray(params.messages) ? params.messages : []);
        if (adopted > 0)
          logger.debug?.(`summary-tree: ${params.sessionId}: started from the host's ${adopted} message(s).`);
        const budget = budgetFrom(params.tokenBudget);
        const assembled = assembleContext(tree.activeRoots(), tree.raw, budget);
        if (assembled.droppedRawMessages > 0 || assembled.droppedSummaries > 0) {
          logger.warn(
            `summary-tree: ${params.sessionId}: ${budget}-token budget is below the planned context; left out ` +
              `${assembled.droppedRawMessages} unsummarized message(s) and ${assembled.droppedSummaries} summary(ies). ` +
              `Lower contextThreshold or freshTailTokens.`,
          );
        }
        return {
          messages: assembled.messages,
          estimatedTokens: assembled.estimatedTokens,
          promptAuthority: 'assembled' as const,
        };
      });
    },

    async compact(params) {
      return store.withLock(params.sessionId, async () => {
        const tree = await store.get(params.sessionId, params.sessionKey);
        try {
          const result = await maybeCompact(tree, {
            tokenBudget: budgetFrom(params.tokenBudget, params.runtimeContext?.tokenBudget),
            force: params.force === true,
            currentTokenCount: positive(params.currentTokenCount) ?? positive(params.runtimeContext?.currentTokenCount),
            runtimeContext: params.runtimeContext,
            signal: params.abortSignal,
            customInstructions: params.customInstructions,
          });
          await store.save(tree);
          return result;
        } catch (error) {
          if (params.abortSignal?.aborted) throw error;
          return { ok: false, compacted: false, reason: `summary-tree compaction failed: ${errorText(error)}` };
        }
      });
    },

    async prepareSubagentSpawn(params) {
      const childKey = params.childSessionKey;
      if (params.contextMode !== 'fork') {
        return {
          rollback: () => {
            logger.info(`summary-tree: rollback for isolated subagent ${childKey}: nothing was prepared.`);
          },
        };
      }

      const parentId = params.parentSessionId ?? store.sessionIdForKey(params.parentSessionKey);
      const childId = params.childSessionId ?? `pending:${childKey}`;
      const seed = async (): Promise<SessionTree> => {
        const parent = parentId ? await store.get(parentId, params.parentSessionKey) : undefined;
        if (!parent || (parent.nodes.length === 0 && parent.raw.length === 0)) {
          logger.warn(
            `summary-tree: fork of ${params.parentSessionKey} → ${childKey}: no state for the parent; the child starts empty.`,
          );
          return new SessionTree(childId, childKey);
        }
        return parent.cloneAs(childId, childKey);
      };
      const child = parentId ? await store.withLock(parentId, seed) : await seed();
      child.placeholder = params.childSessionId === undefined;
      store.put(child);
      await store.save(child);
      logger.info(
        `summary-tree: seeded forked subagent ${childKey} with ${child.activeRoots().length} summary(ies) and ` +
          `${child.raw.length} recent message(s) from ${parentId ?? '(unknown parent)'}.`,
      );

      return {
        rollback: async () => {
          // The child may have been adopted under its real sessionId since; look it up by key.
          const id = store.sessionIdForKey(childKey) ?? childId;
          await store.drop(id);
          logger.info(`summary-tree: rolled back forked subagent ${childKey}: dropped its seeded state.`);
        },
      };
    },

    async onSubagentEnded(params) {
      const id = store.sessionIdForKey(params.childSessionKey);
      if (id === undefined) {
        logger.debug?.(`summary-tree: subagent ${params.childSessionKey} ended (${params.reason}); no state held.`);
        return;
      }
      if (params.reason === 'deleted' || params.reason === 'swept') {
        await store.withLock(id, () => store.drop(id));
        logger.info(`summary-tree: subagent ${params.childSessionKey} ${params.reason}: dropped its state.`);
        return;
      }
      const tree = store.peek(id);
      if (tree) await store.withLock(id, () => store.save(tree));
      logger.info(`summary-tree: subagent ${params.childSessionKey} ${params.reason}: kept its state.`);
    },

    async dispose() {
      await store.flushAll();
      store.clear();
    },
  };
}

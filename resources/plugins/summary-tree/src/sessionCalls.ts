// The per-turn engine calls on one session's tree, each under that session's lock: ingest, ingestBatch,
// afterTurn (then threshold compaction), assemble ([summaries…, fresh tail] within the budget) and compact.

import { assembleContext } from './assembleContext.ts';
import { errorText, positive } from './engineContext.ts';
import type { EngineContext } from './engineContext.ts';
import type { SessionTree } from './sessionTree.ts';
import { compactAfterIngest, maybeCompact } from './thresholdCompaction.ts';
import type {
  AfterTurnParams,
  AgentMessage,
  AssembleParams,
  AssembleResult,
  CompactParams,
  CompactResult,
  IngestBatchParams,
  IngestParams,
} from './types.ts';

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

export async function ingestMessage(ctx: EngineContext, params: IngestParams): Promise<{ ingested: boolean }> {
  const { store } = ctx;
  return store.withLock(params.sessionId, async () => {
    const tree = await store.get(params.sessionId, params.sessionKey);
    return { ingested: tree.append(params.message) };
  });
}

export async function ingestMessages(
  ctx: EngineContext,
  params: IngestBatchParams,
): Promise<{ ingestedCount: number }> {
  const { store } = ctx;
  return store.withLock(params.sessionId, async () => {
    const tree = await store.get(params.sessionId, params.sessionKey);
    let ingestedCount = 0;
    for (const message of params.messages) if (tree.append(message)) ingestedCount++;
    await store.save(tree);
    return { ingestedCount };
  });
}

export async function afterTurn(ctx: EngineContext, params: AfterTurnParams): Promise<void> {
  const { store } = ctx;
  await store.withLock(params.sessionId, async () => {
    const tree = await store.get(params.sessionId, params.sessionKey);
    const newMessages = params.messages.slice(Math.max(0, params.prePromptMessageCount));
    for (const message of newMessages) tree.append(message);
    // Heartbeat turns are periodic polls; not worth a summarization pass.
    if (params.isHeartbeat !== true) {
      await compactAfterIngest(
        ctx,
        tree,
        {
          tokenBudget: ctx.budgetFrom(params.tokenBudget, params.runtimeContext?.tokenBudget),
          force: false,
          runtimeContext: params.runtimeContext,
        },
        'turn',
      );
    }
    await store.save(tree);
  });
}

export async function assemble(ctx: EngineContext, params: AssembleParams): Promise<AssembleResult> {
  const { store, logger } = ctx;
  return store.withLock(params.sessionId, async () => {
    const tree = await store.get(params.sessionId, params.sessionKey);
    const adopted = ingestOnFirstContact(tree, Array.isArray(params.messages) ? params.messages : []);
    if (adopted > 0)
      logger.debug?.(`summary-tree: ${params.sessionId}: started from the host's ${adopted} message(s).`);
    const budget = ctx.budgetFrom(params.tokenBudget);
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
}

/** compact(): /compact, overflow recovery or the host's threshold; a failure is a result unless the call was aborted. */
export async function compactSession(ctx: EngineContext, params: CompactParams): Promise<CompactResult> {
  const { store } = ctx;
  return store.withLock(params.sessionId, async () => {
    const tree = await store.get(params.sessionId, params.sessionKey);
    try {
      const result = await maybeCompact(ctx, tree, {
        tokenBudget: ctx.budgetFrom(params.tokenBudget, params.runtimeContext?.tokenBudget),
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
}

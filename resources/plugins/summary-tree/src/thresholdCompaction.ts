// When and how a session tree is compacted: past contextThreshold × tokenBudget (or when forced), compactTree()
// plans summaries, and the plan is committed only when it makes the context smaller.

import { compactTree, planRoots } from './compactTree.ts';
import type { CompactTreePlan } from './compactTree.ts';
import { errorText } from './engineContext.ts';
import type { EngineContext } from './engineContext.ts';
import { renderSummaryMessage } from './sessionTree.ts';
import type { SessionTree } from './sessionTree.ts';
import type { CompactResult, RuntimeContext } from './types.ts';

export interface CompactRequest {
  tokenBudget: number;
  force: boolean;
  currentTokenCount?: number;
  runtimeContext?: RuntimeContext;
  signal?: AbortSignal;
  customInstructions?: string;
}

function planTokens(plan: CompactTreePlan): number {
  return planRoots(plan).reduce((sum, n) => sum + n.tokens, 0) + plan.raw.reduce((sum, m) => sum + m.tokens, 0);
}

/** The summaries now at the root, as one text (the CompactResult's summary). */
function rootSummaryText(tree: SessionTree): string {
  return tree
    .activeRoots()
    .map((node) => {
      const content = renderSummaryMessage(node).content;
      return Array.isArray(content) && content[0]?.type === 'text' ? content[0].text : '';
    })
    .join('\n\n');
}

export async function maybeCompact(
  ctx: EngineContext,
  tree: SessionTree,
  request: CompactRequest,
): Promise<CompactResult> {
  const { config } = ctx;
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
    summarizer: ctx.summarizer,
    ctx: {
      llm: ctx.llmFor(request.runtimeContext),
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
  return {
    ok: true,
    compacted: true,
    result: {
      summary: rootSummaryText(tree),
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
export async function compactAfterIngest(
  ctx: EngineContext,
  tree: SessionTree,
  request: CompactRequest,
  when: string,
): Promise<void> {
  try {
    const result = await maybeCompact(ctx, tree, request);
    if (result.compacted && result.result) {
      ctx.logger.info(
        `summary-tree: ${tree.sessionId}: compacted after ${when}, ${result.result.tokensBefore} → ` +
          `${result.result.tokensAfter} tokens (${tree.leafCount()} leaves, depth ${tree.depth()}).`,
      );
    }
  } catch (error) {
    ctx.logger.warn(`summary-tree: ${tree.sessionId}: compaction after ${when} failed: ${errorText(error)}`);
  }
}

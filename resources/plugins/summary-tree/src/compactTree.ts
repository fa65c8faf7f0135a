// Compaction of one session tree, computed on copies so the caller can keep or discard the result:
//   1. choose the fresh tail (newest raw messages within freshTailTokens, starting at a safe message);
//   2. summarize everything older in chunks of ~leafChunkTokens into level-0 leaves;
//   3. whenever a level holds more than maxLeavesBeforeCondense active nodes, condense the oldest of them into
//      one parent on the next level (repeat up the tree);
//   4. if the result is still above the target, condense all active roots into a single top node.
// Cuts never separate an assistant tool call from its toolResults: a chunk or the tail never starts with a
// toolResult, and toolResults always follow their call directly.

import { estimateMessageTokens } from './estimateTokens.ts';
import { renderSummaryMessage, timestampMs } from './sessionTree.ts';
import type { SessionTree, StoredMessage, SummaryNode } from './sessionTree.ts';
import type { SummarizeContext, Summarizer, SummaryDraft } from './summarizer.ts';

export interface CompactTreeOptions {
  freshTailTokens: number;
  leafChunkTokens: number;
  maxLeavesBeforeCondense: number;
  /** Tokens the tree should fit in afterwards; triggers step 4. */
  targetTokens: number;
  summarizer: Summarizer;
  ctx: SummarizeContext;
}

export interface CompactTreePlan {
  raw: StoredMessage[];
  /** Copies of the tree's active nodes (creation order); those condensed by this pass have a parentId now. */
  activeBefore: SummaryNode[];
  /** Nodes created by this pass, oldest first. */
  newNodes: SummaryNode[];
  levelCounters: number[];
  /** Ids of nodes created by this pass, oldest first. */
  created: string[];
}

/** The nodes without a parent after the plan, in creation order. */
export function planRoots(plan: CompactTreePlan): SummaryNode[] {
  return [...plan.activeBefore, ...plan.newNodes].filter((n) => n.parentId === undefined);
}

/**
 * Index of the first raw message kept verbatim. Prefers starting at a user message; if the tail budget holds
 * no user message it starts at the first non-toolResult; it always keeps at least the newest non-toolResult.
 */
export function findFreshTailStart(raw: StoredMessage[], freshTailTokens: number): number {
  let start = raw.length;
  let used = 0;
  while (start > 0 && used + raw[start - 1].tokens <= freshTailTokens) {
    used += raw[start - 1].tokens;
    start--;
  }
  for (let i = start; i < raw.length; i++) if (raw[i].message.role === 'user') return i;
  for (let i = start; i < raw.length; i++) if (raw[i].message.role !== 'toolResult') return i;
  for (let i = raw.length - 1; i >= 0; i--) if (raw[i].message.role !== 'toolResult') return i;
  return 0;
}

/**
 * Greedy chunks of about `chunkTokens` (a short remainder joins the previous chunk, so up to 1.5×); a chunk
 * never starts with a toolResult.
 */
export function chunkForLeaves(messages: StoredMessage[], chunkTokens: number): StoredMessage[][] {
  const chunks: StoredMessage[][] = [];
  let current: StoredMessage[] = [];
  let tokens = 0;
  for (const stored of messages) {
    const canCut = stored.message.role !== 'toolResult';
    if (current.length > 0 && canCut && tokens + stored.tokens > chunkTokens) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(stored);
    tokens += stored.tokens;
  }
  if (current.length > 0) {
    // A short remainder is not worth its own summary: fold it into the previous chunk.
    const previous = chunks[chunks.length - 1];
    if (previous && tokens < chunkTokens / 2) previous.push(...current);
    else chunks.push(current);
  }
  return chunks;
}

function nextOrdinal(counters: number[], level: number): number {
  while (counters.length <= level) counters.push(0);
  counters[level] += 1;
  return counters[level];
}

function buildNode(
  level: number,
  counters: number[],
  range: { fromSeq: number; toSeq: number; lastTimestamp: number },
  draft: SummaryDraft,
  childIds: string[],
): SummaryNode {
  const ordinal = nextOrdinal(counters, level);
  const base = { level, ordinal, ...range, text: draft.text };
  return {
    id: `L${level}#${ordinal}`,
    ...base,
    facts: draft.facts,
    method: draft.method,
    childIds,
    tokens: estimateMessageTokens(renderSummaryMessage(base)),
  };
}

function activeAt(nodes: SummaryNode[], level: number): SummaryNode[] {
  return nodes.filter((n) => n.parentId === undefined && n.level === level).sort((a, b) => a.fromSeq - b.fromSeq);
}

async function condenseGroup(
  group: SummaryNode[],
  level: number,
  counters: number[],
  options: CompactTreeOptions,
): Promise<SummaryNode> {
  options.ctx.signal?.throwIfAborted();
  const draft = await options.summarizer.condense(group, options.ctx);
  const parent = buildNode(
    level,
    counters,
    {
      fromSeq: group[0].fromSeq,
      toSeq: group[group.length - 1].toSeq,
      lastTimestamp: group[group.length - 1].lastTimestamp,
    },
    draft,
    group.map((child) => child.id),
  );
  for (const child of group) child.parentId = parent.id;
  return parent;
}

export async function compactTree(tree: SessionTree, options: CompactTreeOptions): Promise<CompactTreePlan> {
  // Copies of the active nodes: they may get a parentId below, and the caller may discard the plan. A node that
  // already has a parent is never modified again, so it is left out (keeps this O(active nodes)). `nodes` is in
  // creation order, so the stable sorts below order ties exactly as they would over the whole tree.
  const activeBefore = tree.activeNodes().map((node) => ({ ...node }));
  const nodes = [...activeBefore];
  const counters = [...tree.levelCounters];
  const created: string[] = [];

  // 1–2. Leaves from everything older than the fresh tail.
  const tailStart = findFreshTailStart(tree.raw, options.freshTailTokens);
  for (const chunk of chunkForLeaves(tree.raw.slice(0, tailStart), options.leafChunkTokens)) {
    options.ctx.signal?.throwIfAborted();
    const draft = await options.summarizer.summarizeChunk(
      chunk.map((stored) => stored.message),
      options.ctx,
    );
    const leaf = buildNode(
      0,
      counters,
      {
        fromSeq: chunk[0].seq,
        toSeq: chunk[chunk.length - 1].seq,
        lastTimestamp: timestampMs(chunk[chunk.length - 1].message),
      },
      draft,
      [],
    );
    nodes.push(leaf);
    created.push(leaf.id);
  }
  const raw = tree.raw.slice(tailStart);

  // 3. Condense levels that hold too many active nodes, bottom-up.
  const fanIn = options.maxLeavesBeforeCondense;
  for (let level = 0; level < counters.length; level++) {
    let active = activeAt(nodes, level);
    while (active.length > fanIn) {
      const parent = await condenseGroup(active.slice(0, fanIn), level + 1, counters, options);
      nodes.push(parent);
      created.push(parent.id);
      active = activeAt(nodes, level);
    }
  }

  // 4. Still too big: fold every active root into one node above the current top.
  const roots = nodes.filter((n) => n.parentId === undefined).sort((a, b) => a.fromSeq - b.fromSeq);
  const total = roots.reduce((sum, n) => sum + n.tokens, 0) + raw.reduce((sum, m) => sum + m.tokens, 0);
  if (total > options.targetTokens && roots.length > 1) {
    const top = Math.max(...roots.map((n) => n.level)) + 1;
    const parent = await condenseGroup(roots, top, counters, options);
    nodes.push(parent);
    created.push(parent.id);
  }

  return { raw, activeBefore, newNodes: nodes.slice(activeBefore.length), levelCounters: counters, created };
}

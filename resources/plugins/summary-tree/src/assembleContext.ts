// What the model sees: the active summaries (oldest first) followed by the raw fresh tail.
//
// Compaction normally keeps this under budget. When the host's budget is tighter than the one compaction
// planned for (a smaller model, a bigger system prompt), whole turns are dropped from the front of the raw tail
// (never the newest turn), then the oldest summaries. The cut is always at a user message, so tool calls keep
// their results and the context never opens on an assistant or toolResult message.

import { assembledMessage, renderSummaryMessage } from './sessionTree.ts';
import type { StoredMessage, SummaryNode } from './sessionTree.ts';
import type { AgentMessage } from './types.ts';

export interface AssembledContext {
  messages: AgentMessage[];
  estimatedTokens: number;
  droppedRawMessages: number;
  droppedSummaries: number;
}

export function assembleContext(
  roots: readonly SummaryNode[],
  raw: StoredMessage[],
  budgetTokens: number,
): AssembledContext {
  let summaries = roots;
  let tail = raw;
  const sum = () => summaries.reduce((s, n) => s + n.tokens, 0) + tail.reduce((s, m) => s + m.tokens, 0);
  let total = sum();

  if (total > budgetTokens) {
    // Turn starts after the first message; cutting at the last one keeps only the newest turn.
    const turnStarts: number[] = [];
    for (let i = 1; i < tail.length; i++) if (tail[i].message.role === 'user') turnStarts.push(i);
    let freed = 0;
    let cut = 0;
    for (const start of turnStarts) {
      while (cut < start) freed += tail[cut++].tokens;
      if (total - freed <= budgetTokens) break;
    }
    tail = tail.slice(cut);
    total = sum();
  }
  while (total > budgetTokens && summaries.length > 0) {
    // Without summaries in front, a tail that starts mid-turn would open on an assistant message.
    if (summaries.length === 1 && tail.length > 0 && tail[0].message.role !== 'user') break;
    summaries = summaries.slice(1);
    total = sum();
  }

  return {
    messages: [...summaries.map(renderSummaryMessage), ...tail.map(assembledMessage)],
    estimatedTokens: total,
    droppedRawMessages: raw.length - tail.length,
    droppedSummaries: roots.length - summaries.length,
  };
}

/**
 * The context size the compaction trigger compares against the window (harness `estimateContextTokens`,
 * behaviour §3.3): the provider-reported usage of the last assistant message that has usable usage, plus the
 * compaction estimate of every message after it.
 */
import type { AgentMessage, Usage } from '../../contract';
import { HARNESS_2026_9, type HarnessBehaviour } from './harnessBehaviour';
import { messageTokens } from './messageTokens';

export interface ContextTokenEstimate {
  /** usageTokens + trailingTokens */
  tokens: number;
  /** context size reported by the anchoring assistant message (0 without one) */
  usageTokens: number;
  /** compaction estimate of the messages after the anchor (all messages without one) */
  trailingTokens: number;
  /** index of the anchoring assistant message, or null */
  lastUsageIndex: number | null;
}

/** `contextUsage.totalTokens` when available, else `totalTokens`, else input + output + cacheRead + cacheWrite. */
export function calculateContextTokens(usage: Usage): number {
  if (usage.contextUsage?.state === 'available') return usage.contextUsage.totalTokens;
  return (
    usage.totalTokens || (usage.input ?? 0) + (usage.output ?? 0) + (usage.cacheRead ?? 0) + (usage.cacheWrite ?? 0)
  );
}

/**
 * Usage of an assistant message that can anchor the estimate: not aborted/errored, and (2026.9) computing to > 0.
 */
function usableUsage(message: AgentMessage, skipZero: boolean): Usage | undefined {
  if (message.role !== 'assistant' || !message.usage) return undefined;
  if (message.stopReason === 'aborted' || message.stopReason === 'error') return undefined;
  return !skipZero || calculateContextTokens(message.usage) > 0 ? message.usage : undefined;
}

/**
 * An assistant message that invalidates all older usage without giving a replacement: a CLI-backend reply with
 * no `contextUsage`, or usage marked unavailable that computes to 0.
 */
function isUsageBarrier(message: AgentMessage): boolean {
  if (message.role !== 'assistant' || !message.usage) return false;
  if (message.api === 'cli' && message.usage.contextUsage === undefined) return true;
  return message.usage.contextUsage?.state === 'unavailable' && calculateContextTokens(message.usage) === 0;
}

export function estimateContextTokens(
  messages: readonly AgentMessage[],
  harness: Pick<HarnessBehaviour, 'usageSkipsZeroAndBarrier' | 'messageEstimator'> = HARNESS_2026_9,
): ContextTokenEstimate {
  const modern = harness.usageSkipsZeroAndBarrier;
  let anchor = -1;
  let usageTokens = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (modern && isUsageBarrier(message)) break;
    const usage = usableUsage(message, modern);
    if (usage && usage.contextUsage?.state !== 'unavailable') {
      anchor = i;
      usageTokens = calculateContextTokens(usage);
      break;
    }
  }
  let trailingTokens = 0;
  for (let i = anchor + 1; i < messages.length; i++)
    trailingTokens += messageTokens(messages[i]!, harness.messageEstimator);
  return {
    tokens: usageTokens + trailingTokens,
    usageTokens,
    trailingTokens,
    lastUsageIndex: anchor >= 0 ? anchor : null,
  };
}

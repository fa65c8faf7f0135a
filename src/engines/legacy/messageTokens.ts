/**
 * The compaction token estimate per message object. Every compaction estimates the context it starts from, its cut
 * and the context it leaves, so the kept (immutable) messages would be measured again and again.
 */
import type { AgentMessage } from '../../contract';
import { estimateMessageTokensBy, type MessageEstimator } from '../../tokens';
import { isRuntimeContextCarrier } from '../../transcripts';

const estimates: Record<MessageEstimator, WeakMap<AgentMessage, number>> = {
  weighted: new WeakMap(),
  plain: new WeakMap(),
};

/** The release's `estimateTokens(message)` (src/tokens/estimateMessageTokens.ts), measured once per message. */
export function messageTokens(message: AgentMessage, estimator: MessageEstimator = 'weighted'): number {
  const cache = estimates[estimator];
  let tokens = cache.get(message);
  if (tokens === undefined) {
    tokens = estimateMessageTokensBy(message, estimator);
    cache.set(message, tokens);
  }
  return tokens;
}

/** `estimateMessagesTokens(messages)`: the estimates of the messages that are not runtime-context carriers. */
export function messagesTokens(messages: readonly AgentMessage[], estimator: MessageEstimator = 'weighted'): number {
  let total = 0;
  for (const message of messages) if (!isRuntimeContextCarrier(message)) total += messageTokens(message, estimator);
  return total;
}

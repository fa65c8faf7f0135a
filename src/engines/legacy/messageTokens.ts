/**
 * The compaction token estimate per message object. Every compaction estimates the context it starts from, its cut
 * and the context it leaves, so the kept (immutable) messages would be measured again and again.
 */
import type { AgentMessage } from '../../contract';
import { estimateMessageTokens } from '../../tokens';
import { isRuntimeContextCarrier } from '../../transcripts';

const estimates = new WeakMap<AgentMessage, number>();

/** `estimateMessageTokens(message)`, measured once per message. */
export function messageTokens(message: AgentMessage): number {
  let tokens = estimates.get(message);
  if (tokens === undefined) {
    tokens = estimateMessageTokens(message);
    estimates.set(message, tokens);
  }
  return tokens;
}

/** `estimateMessagesTokens(messages)`: the estimates of the messages that are not runtime-context carriers. */
export function messagesTokens(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) if (!isRuntimeContextCarrier(message)) total += messageTokens(message);
  return total;
}

/**
 * Tool calls and results that do not pair up on a branch: a `toolResult` whose `toolCallId` no earlier assistant
 * message called (an orphan result: providers reject the request, OpenClaw's transcript repair drops it), and
 * tool calls left without a result (OpenClaw inserts a synthetic error result for them before the next model call).
 */
import type { AgentMessage } from '../contract';

export interface ToolPairing {
  orphanToolResults: number;
  unansweredToolCalls: number;
  /** the first orphan result: its position among the messages and its call id */
  firstOrphanResult?: { index: number; toolCallId: string };
}

export function countToolPairing(messages: readonly AgentMessage[]): ToolPairing {
  const called = new Set<string>();
  const answered = new Set<string>();
  let orphanToolResults = 0;
  let firstOrphanResult: ToolPairing['firstOrphanResult'];
  messages.forEach((message, index) => {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const block of message.content) if (block?.type === 'toolCall') called.add(block.id);
    } else if (message.role === 'toolResult') {
      if (called.has(message.toolCallId)) answered.add(message.toolCallId);
      else {
        orphanToolResults++;
        firstOrphanResult ??= { index, toolCallId: message.toolCallId };
      }
    }
  });
  const unansweredToolCalls = [...called].filter((id) => !answered.has(id)).length;
  return { orphanToolResults, unansweredToolCalls, ...(firstOrphanResult ? { firstOrphanResult } : {}) };
}

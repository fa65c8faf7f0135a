/**
 * Tool calls and results that do not pair up on a branch: a `toolResult` whose `toolCallId` no earlier assistant
 * message called (an orphan result: providers reject the request, OpenClaw's transcript repair drops it), and
 * tool calls left without a result (OpenClaw inserts a synthetic error result for them before the next model call).
 */
import type { AgentMessage, SessionEntry } from '../contract';
import type { SessionProblem } from './sessionProblems';

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

/**
 * A problem (a warning, with its line) for each `toolResult` whose call no earlier message of the file made. The
 * session stays loadable: OpenClaw's transcript repair drops such a result before the model call.
 */
export function orphanToolResultProblems(
  entries: readonly SessionEntry[],
  entryLines: readonly number[],
): SessionProblem[] {
  const called = new Set<string>();
  const problems: SessionProblem[] = [];
  entries.forEach((entry, i) => {
    if (entry.type !== 'message') return;
    const message = entry.message;
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const block of message.content) if (block?.type === 'toolCall') called.add(block.id);
    } else if (message.role === 'toolResult' && !called.has(message.toolCallId)) {
      problems.push({
        line: entryLines[i] ?? 0,
        code: 'orphan_tool_result',
        message:
          `has a toolResult for call ${JSON.stringify(message.toolCallId)} (${String(message.toolName)}), which no ` +
          "earlier assistant message made (OpenClaw's transcript repair drops it before the model call)",
        severity: 'warning',
        entryId: entry.id,
      });
    }
  });
  return problems;
}

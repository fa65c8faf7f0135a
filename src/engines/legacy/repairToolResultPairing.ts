/**
 * Tool-call / tool-result pairing repair (OpenClaw's transcript repair, behaviour §3.2 step 5). For each assistant
 * message with tool calls, the results that answer it — anywhere before the next assistant message — are moved
 * right after it in call order; a call without a result gets OpenClaw's synthetic error result (OpenClaw inserts
 * rather than dropping the call, so the assistant's reasoning survives). Results whose call is missing, and
 * second results for the same call, are dropped. Aborted/errored assistant turns are left as they are (no
 * synthetic results), so results following them are orphans.
 */
import type { AssistantMessage, ToolCall, ToolResultMessage } from '../../contract';
import type { HistoryItem, RemovalLog } from './historyItems';

export const MISSING_TOOL_RESULT_TEXT =
  '[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.';

export interface InsertedToolResult {
  /** input index of the assistant message the synthetic result answers */
  afterIndex: number;
  toolCallId: string;
}

/** The synthetic result, stamped with the assistant's timestamp so the pipeline stays deterministic. */
export function makeMissingToolResult(call: ToolCall, assistant: AssistantMessage): ToolResultMessage {
  return {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name || 'unknown',
    content: [{ type: 'text', text: MISSING_TOOL_RESULT_TEXT }],
    isError: true,
    timestamp: assistant.timestamp,
  };
}

function toolCalls(message: AssistantMessage): ToolCall[] {
  if (!Array.isArray(message.content)) return [];
  return message.content.filter(
    (b): b is ToolCall => b?.type === 'toolCall' && typeof b.id === 'string' && b.id.length > 0,
  );
}

/** The call ids answered so far (a Set, or a tracker that can roll additions back). */
export interface AnsweredCalls {
  has(id: string): boolean;
  add(id: string): unknown;
}

export interface RepairResumeOptions {
  /** call ids answered before `items[0]` (when resuming after an earlier segment); default: none */
  answered?: AnsweredCalls;
  /**
   * Called before each item the scan starts at (each assistant, and every item outside a tool-call group), with
   * the number of items output so far: at such an index nothing before it depends on what follows.
   */
  onVisit?: (index: number, outLength: number) => void;
}

export function repairToolResultPairing(
  items: readonly HistoryItem[],
  log: RemovalLog,
  inserted: InsertedToolResult[],
  resume: RepairResumeOptions = {},
): HistoryItem[] {
  const out: HistoryItem[] = [];
  const answered = resume.answered ?? new Set<string>();
  const onVisit = resume.onVisit;
  let i = 0;
  while (i < items.length) {
    onVisit?.(i, out.length);
    const item = items[i]!;
    const message = item.message;
    if (message.role === 'toolResult') {
      log.add(item, answered.has(message.toolCallId) ? 'duplicate-tool-result' : 'orphan-tool-result');
      i++;
      continue;
    }
    const calls =
      message.role === 'assistant' && message.stopReason !== 'error' && message.stopReason !== 'aborted'
        ? toolCalls(message)
        : [];
    if (calls.length === 0) {
      out.push(item);
      i++;
      continue;
    }
    const callIds = new Set(calls.map((c) => c.id));
    const results = new Map<string, HistoryItem>();
    const between: HistoryItem[] = [];
    let j = i + 1;
    for (; j < items.length && items[j]!.message.role !== 'assistant'; j++) {
      const next = items[j]!;
      if (next.message.role !== 'toolResult') {
        between.push(next);
        continue;
      }
      const id = next.message.toolCallId;
      if (callIds.has(id) && !results.has(id) && !answered.has(id)) results.set(id, next);
      else log.add(next, results.has(id) || answered.has(id) ? 'duplicate-tool-result' : 'orphan-tool-result');
    }
    out.push(item);
    for (const call of calls) {
      if (answered.has(call.id)) continue; // a repeated call id is answered once
      answered.add(call.id);
      const result = results.get(call.id);
      if (result) out.push(result);
      else {
        out.push({ message: makeMissingToolResult(call, message as AssistantMessage), source: -1 });
        inserted.push({ afterIndex: item.source, toolCallId: call.id });
      }
    }
    out.push(...between);
    i = j;
  }
  return out;
}

/**
 * tool_result_persist: OpenClaw runs it synchronously as each tool result is written to the transcript
 * (`{toolName, toolCallId, message, isSynthetic}`, context `{agentId, sessionKey, toolName, toolCallId}`); each
 * handler gets the previous handler's message and may return `{message}` to replace it. The replay runs it on the
 * recorded turn's tool results before they are appended to the lane transcript (one round trip for the turn), so
 * the lane holds what OpenClaw would have persisted with this plugin. A session recorded with the plugin installed
 * already went through it once.
 */
import type { AgentMessage, SessionEntry, ToolResultMessage } from '../../../contract';
import { parseSessionKey, projectSessionEntryMessage } from '../../../transcripts';
import type { TurnDraft } from '../../recording/turnDraft';
import type { SessionTurn } from '../../session/sessionTurns';
import type { Lane } from '../laneContext';
import { handlerErrors, invocationOf, recordHook, runHookPoint, runnableHooks } from './laneHooks';

function charsOf(message: unknown): number {
  return JSON.stringify((message as { content?: unknown })?.content ?? '').length;
}

/** The turn's tool results the plugin's tool_result_persist rewrote, by recorded entry id. */
export async function persistToolResults(
  lane: Lane,
  draft: TurnDraft,
  turn: SessionTurn,
): Promise<Map<string, AgentMessage> | undefined> {
  if (runnableHooks(lane, ['tool_result_persist']).length === 0) return undefined;
  const results: { entry: SessionEntry; message: ToolResultMessage }[] = [];
  for (const entry of turn.entries) {
    if (entry.type !== 'message') continue;
    const message = projectSessionEntryMessage(entry);
    if (message?.role === 'toolResult') results.push({ entry, message: message as ToolResultMessage });
  }
  if (results.length === 0) return undefined;
  const agentId = parseSessionKey(lane.sessionKey ?? '')?.agentId ?? 'main';
  const sessionKey = lane.sessionParams.sessionKey ?? lane.sessionParams.sessionId;
  const invocations = results.map(({ message }) => {
    const { toolName, toolCallId } = message;
    return invocationOf(
      'tool_result_persist',
      { toolName, toolCallId, message, isSynthetic: false },
      { agentId, sessionKey, toolName, toolCallId },
    );
  });
  const replies = await runHookPoint(lane, draft, invocations);
  if (!replies) return undefined;
  const rewritten = new Map<string, AgentMessage>();
  let charsBefore = 0;
  let charsAfter = 0;
  replies.forEach((reply, i) => {
    const { entry, message } = results[i]!;
    const changed = reply.handlers.some((h) => h.result !== undefined) && reply.message !== undefined;
    if (!changed) return;
    rewritten.set(entry.id, reply.message as AgentMessage);
    charsBefore += charsOf(message);
    charsAfter += charsOf(reply.message);
  });
  const errors = replies.flatMap(handlerErrors);
  recordHook(draft, {
    name: 'tool_result_persist',
    handlers: replies[0]?.handlers.length ?? 0,
    changed: rewritten.size > 0,
    summary:
      rewritten.size > 0
        ? `rewrote ${rewritten.size} of ${results.length} tool results (${charsBefore} → ${charsAfter} chars)`
        : `kept ${results.length} tool results`,
    ...(errors.length ? { errors: [...new Set(errors)] } : {}),
  });
  return rewritten;
}

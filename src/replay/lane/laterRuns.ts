/**
 * A recorded turn can carry messages of later runs. When a prompt never made it into the transcript (a precheck that
 * failed before the user message was stored), OpenClaw's CLI still writes its notice — an assistant message with api
 * `cli` and zero usage ("Context overflow: prompt too large for the model…") — after the turn's reply. OpenClaw
 * checked the turn's compaction threshold and compacted right after the reply, before those notices existed (6.11
 * and 7.35 sessions have the compaction entry there); the replay measures the turn's own run the same way.
 */
import type { AgentMessage } from '../../contract';

function isCliNotice(message: AgentMessage): boolean {
  return message.role === 'assistant' && (message as { api?: unknown }).api === 'cli';
}

/** The turn's new messages up to the first notice a later run wrote. */
export function ownRun(appended: { newMessages: readonly AgentMessage[]; newMessageKeys: readonly string[] }): {
  newMessages: readonly AgentMessage[];
  newMessageKeys: readonly string[];
} {
  const end = appended.newMessages.findIndex(isCliNotice);
  if (end <= 0) return appended;
  return { newMessages: appended.newMessages.slice(0, end), newMessageKeys: appended.newMessageKeys.slice(0, end) };
}

/** The context without the notices later runs wrote at its end (what OpenClaw's compaction after the reply saw). */
export function withoutTrailingCliNotices(messages: readonly AgentMessage[]): readonly AgentMessage[] {
  let end = messages.length;
  while (end > 0 && isCliNotice(messages[end - 1]!)) end--;
  return end === messages.length ? messages : messages.slice(0, end);
}

import type { AgentMessage, SessionEntry } from '../../../contract';
import { projectSessionEntryMessage } from '../../../transcripts';
import type { TurnDraft } from '../../recording/turnDraft';
import type { SessionTurn } from '../../session/sessionTurns';
import { appendRecordedCompaction } from '../laneCompactions';
import type { Lane } from '../laneContext';

/**
 * The turn's recorded entries (user prompt, model output, tool results…) go into the lane transcript — always, even
 * when the prompt was not sent, so every lane stays aligned with the recording; the replay never calls a model.
 * Recorded compactions are markers unless the caller honours them (behaviour §13 step 9).
 */
export function appendRecordedTurn(
  lane: Lane,
  draft: TurnDraft,
  turn: SessionTurn,
  /** tool results a plugin's tool_result_persist rewrote, by recorded entry id */
  persisted?: ReadonlyMap<string, AgentMessage>,
): { newMessages: AgentMessage[]; newMessageKeys: string[] } {
  const { state, transcript } = lane;
  const newMessages: AgentMessage[] = [];
  const newMessageKeys: string[] = [];
  for (const entry of turn.entries) {
    if (entry.type === 'compaction') {
      if (state.honourRecordedCompactions) appendRecordedCompaction(lane, draft, entry);
      continue;
    }
    const rewrite = persisted?.get(entry.id);
    if (rewrite) {
      const appended = transcript.appendRecorded({ ...entry, message: rewrite } as SessionEntry, { rewritten: true });
      if (!appended) continue;
      newMessages.push(rewrite);
      newMessageKeys.push(appended.id);
      state.table.intern(appended.id, rewrite);
      continue;
    }
    if (!transcript.appendRecorded(entry)) continue;
    const message = projectSessionEntryMessage(entry as SessionEntry);
    if (message) {
      newMessages.push(message);
      newMessageKeys.push(entry.id);
      state.table.intern(entry.id, message, entry.id);
    }
  }
  transcript.materialize();
  return { newMessages, newMessageKeys };
}

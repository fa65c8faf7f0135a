/**
 * How compaction classifies transcript entries: the message an entry contributes (compaction entries give none
 * here), which messages start a turn, and where a cut may land (behaviour §3.3 "Cut point").
 */
import type { AgentMessage, SessionEntry } from '../../contract';
import { isRuntimeContextCarrier, projectSessionEntryMessage } from '../../transcripts';

/** The message an entry contributes to compaction: none for `compaction` entries and non-message entries. */
export function messageForCompaction(entry: SessionEntry): AgentMessage | undefined {
  return entry.type === 'compaction' ? undefined : projectSessionEntryMessage(entry);
}

/** user, bashExecution, branchSummary, compactionSummary, and custom messages that are not runtime-context carriers. */
export function isTurnStartMessage(message: AgentMessage): boolean {
  switch (message.role) {
    case 'custom':
      return !isRuntimeContextCarrier(message);
    case 'user':
    case 'bashExecution':
    case 'branchSummary':
    case 'compactionSummary':
      return true;
    default:
      return false;
  }
}

/** A cut may land on an assistant message or a turn start — never on a tool result. */
export function isCutPointMessage(message: AgentMessage): boolean {
  return message.role === 'assistant' || isTurnStartMessage(message);
}

export function isTurnStartEntry(entry: SessionEntry): boolean {
  const message = messageForCompaction(entry);
  return message ? isTurnStartMessage(message) : false;
}

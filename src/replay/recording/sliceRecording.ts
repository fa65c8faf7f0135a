/**
 * A slice of a Recording for clients that page through a long replay (pure): the turns of one lane (optionally a
 * turn range), with the message table cut down to the keys those turns reference. Everything else is kept.
 */
import type { MessageRecord, Recording, TurnRecord } from '../../contract/recording';

export interface RecordingSlice {
  lane?: string;
  /** first turn included (default 0) */
  fromTurn?: number;
  /** last turn included (default: the lane's last) */
  toTurn?: number;
}

/** Every message key the turns reference (prompt, assembled and their sources, new transcript messages, model calls). */
export function referencedKeys(turns: readonly TurnRecord[]): Set<string> {
  const keys = new Set<string>();
  for (const t of turns) {
    keys.add(t.promptKey);
    for (const ref of t.assembled) {
      keys.add(ref.key);
      if (ref.sourceKey) keys.add(ref.sourceKey);
    }
    for (const k of t.newMessageKeys) keys.add(k);
    for (const k of t.modelCallKeys ?? []) keys.add(k);
  }
  return keys;
}

export function sliceRecording(recording: Recording, slice: RecordingSlice): Recording {
  if (slice.lane === undefined && slice.fromTurn === undefined && slice.toTurn === undefined) return recording;
  const laneIds = slice.lane !== undefined ? [slice.lane] : Object.keys(recording.turns);
  const from = slice.fromTurn ?? 0;
  const to = slice.toTurn ?? Number.MAX_SAFE_INTEGER;
  const turns: Record<string, TurnRecord[]> = {};
  for (const id of laneIds) turns[id] = (recording.turns[id] ?? []).filter((t) => t.turn >= from && t.turn <= to);
  const keys = referencedKeys(Object.values(turns).flat());
  const messages: Record<string, MessageRecord> = {};
  for (const k of keys) {
    const record = recording.messages[k];
    if (record) messages[k] = record;
  }
  return { ...recording, turns, messages };
}

/**
 * The Recording as a JSON document (re-importable with `importRecording`), file format 2: each lane turn's
 * `assembled` and `asSent.messages` are written against the same lane's previous turn (`src/view/listDelta.ts`),
 * so a file grows with the session, not with turns × context. The document is produced piece by piece
 * (`recordingJsonChunks`): no single string holds it, which is what let long recordings pass V8's string limit.
 */
import type { Recording } from '../../contract/recording';
import { encodeLaneTurns, encodeTurnRecord, type EncodedTurnRecord } from '../../view/listDelta';

/** What a recording file says in `schemaVersion`: 2 = lists may be deltas; 1 (older files) = every list in full. */
export const RECORDING_FILE_VERSION = 2;

/** The document as it is written (turns encoded), for pretty output and tests. */
export function encodeRecording(
  recording: Recording,
): Omit<Recording, 'schemaVersion' | 'turns'> & { schemaVersion: number; turns: Record<string, EncodedTurnRecord[]> } {
  const turns = Object.fromEntries(
    Object.entries(recording.turns).map(([lane, list]) => [lane, encodeLaneTurns(list)]),
  );
  return { ...recording, schemaVersion: RECORDING_FILE_VERSION, turns };
}

function* objectChunks<T>(entries: Iterable<[string, T]>, write: (value: T) => string): Generator<string> {
  let first = true;
  for (const [key, value] of entries) {
    yield `${first ? '{' : ','}${JSON.stringify(key)}:${write(value)}`;
    first = false;
  }
  yield first ? '{}' : '}';
}

function* laneTurnChunks(records: readonly Recording['turns'][string][number][]): Generator<string> {
  if (records.length === 0) {
    yield '[]';
    return;
  }
  for (let i = 0; i < records.length; i++) {
    yield `${i === 0 ? '[' : ','}${JSON.stringify(encodeTurnRecord(records[i]!, records[i - 1]))}`;
  }
  yield ']';
}

/** The compact document in pieces (one per message, per turn and per top-level field), in the Recording's key order. */
export function* recordingJsonChunks(recording: Recording): Generator<string> {
  let first = true;
  for (const [field, value] of Object.entries(recording)) {
    if (value === undefined) continue;
    yield `${first ? '{' : ','}${JSON.stringify(field)}:`;
    first = false;
    if (field === 'schemaVersion') yield String(RECORDING_FILE_VERSION);
    else if (field === 'messages') yield* objectChunks(Object.entries(recording.messages), (m) => JSON.stringify(m));
    else if (field === 'turns') {
      let lanes = 0;
      for (const [lane, records] of Object.entries(recording.turns)) {
        yield `${lanes++ === 0 ? '{' : ','}${JSON.stringify(lane)}:`;
        yield* laneTurnChunks(records);
      }
      yield lanes === 0 ? '{}' : '}';
    } else yield JSON.stringify(value);
  }
  yield first ? '{}' : '}';
}

/** Compact by default; `pretty` indents for reading. Files are better written with `writeRecordingFile` (streamed). */
export function exportRecordingJson(recording: Recording, options: { pretty?: boolean } = {}): string {
  if (options.pretty) return JSON.stringify(encodeRecording(recording), null, 2);
  return [...recordingJsonChunks(recording)].join('');
}

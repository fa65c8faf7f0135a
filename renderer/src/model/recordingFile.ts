/**
 * A recording file the user picked to compare against (`replay --json`, or Export JSON): parsed and checked for the
 * parts the view model reads. Pure; the full schema check lives in the runtime (importRecording), which the
 * renderer cannot import, so this says plainly what is wrong with a file that is not a recording.
 */
import { decodeLaneTurns, ListDeltaError, type EncodedTurnRecord } from '../../../src/view/listDelta';
import type { Recording } from '../recordingTypes';

export type RecordingFileResult = { ok: true; recording: Recording } | { ok: false; problem: string };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseRecordingFile(text: string, name: string): RecordingFileResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `${name} is not JSON (${(error as Error).message}): choose a recording .json file.` };
  }
  if (!isObject(data) || !('schemaVersion' in data)) {
    return { ok: false, problem: `${name} is not a ContextScope recording: it has no schemaVersion.` };
  }
  // 2: lists written as deltas against the lane's previous turn (decoded below); 1: every list in full
  if (data.schemaVersion !== 1 && data.schemaVersion !== 2) {
    return {
      ok: false,
      problem: `${name} is a recording of schema version ${String(data.schemaVersion)}; this ContextScope reads versions 1 and 2.`,
    };
  }
  const session = data.session;
  if (!isObject(session) || !Array.isArray(session.messageKeys) || !Array.isArray(data.lanes)) {
    return { ok: false, problem: `${name} is missing its session or lanes: it is not a complete recording.` };
  }
  if (!isObject(data.turns) || !isObject(data.messages)) {
    return { ok: false, problem: `${name} is missing its turns or messages: it is not a complete recording.` };
  }
  const turns: Record<string, unknown> = {};
  for (const [lane, records] of Object.entries(data.turns)) {
    if (!Array.isArray(records)) return { ok: false, problem: `${name}: the turns of lane ${lane} are not a list.` };
    try {
      turns[lane] = decodeLaneTurns(records as EncodedTurnRecord[], `turns.${lane}`);
    } catch (error) {
      if (error instanceof ListDeltaError) return { ok: false, problem: `${name} is damaged: ${error.message}.` };
      throw error;
    }
  }
  return { ok: true, recording: { ...data, schemaVersion: 1, turns } as unknown as Recording };
}

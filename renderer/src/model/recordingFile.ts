/**
 * A recording file the user picked to compare against (`replay --json`, or Export JSON): parsed and checked for the
 * parts the view model reads. Pure; the full schema check lives in the runtime (importRecording), which the
 * renderer cannot import, so this says plainly what is wrong with a file that is not a recording.
 */
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
  if (data.schemaVersion !== 1) {
    return {
      ok: false,
      problem: `${name} is a recording of schema version ${String(data.schemaVersion)}; this ContextScope reads version 1.`,
    };
  }
  const session = data.session;
  if (!isObject(session) || !Array.isArray(session.messageKeys) || !Array.isArray(data.lanes)) {
    return { ok: false, problem: `${name} is missing its session or lanes: it is not a complete recording.` };
  }
  if (!isObject(data.turns) || !isObject(data.messages)) {
    return { ok: false, problem: `${name} is missing its turns or messages: it is not a complete recording.` };
  }
  return { ok: true, recording: data as unknown as Recording };
}

/**
 * How the replay reads a recorded `sessions_spawn` call (behaviour §8.1), on top of the records src/transcripts
 * collects: `context` is "isolated" unless it is "fork"; `mode` is "run" unless "session" is asked for (the
 * default when `thread` is true); `cleanup` is "keep" unless "delete" is asked for, and always "keep" in session
 * mode. A spawn failed when its recorded result has a status other than "accepted" (OpenClaw's
 * `SpawnSubagentResult.status`: accepted | forbidden | error) or `isError`.
 */
import type { SessionEntry, SubagentContextMode } from '../../contract';
import { collectSpawnRecords, type SpawnRecord } from '../../transcripts';

export interface RecordedSpawn {
  toolCallId: string;
  contextMode: SubagentContextMode;
  lightContext: boolean;
  mode: 'run' | 'session';
  cleanup: 'keep' | 'delete';
  /** from the tool result; null when the result names none */
  childSessionKey: string | null;
  /** the recorded tool result reports a failure */
  failed: boolean;
  error?: string;
  /** the recorded tool result was found */
  hasResult: boolean;
}

export function interpretSpawnRecord(record: SpawnRecord): RecordedSpawn {
  const args = record.arguments ?? {};
  const contextMode: SubagentContextMode = args.context === 'fork' ? 'fork' : 'isolated';
  const mode: 'run' | 'session' =
    args.mode === 'session' || args.mode === 'run' ? args.mode : args.thread === true ? 'session' : 'run';
  const cleanup: 'keep' | 'delete' = mode === 'session' ? 'keep' : args.cleanup === 'delete' ? 'delete' : 'keep';
  const hasResult = record.resultEntryId !== undefined;
  const failed = hasResult && record.status !== undefined && record.status !== 'accepted';
  const out: RecordedSpawn = {
    toolCallId: record.toolCallId,
    contextMode,
    lightContext: args.lightContext === true,
    mode,
    cleanup,
    childSessionKey: record.childSessionKey ?? null,
    failed,
    hasResult,
  };
  if (failed) out.error = record.error ?? `sessions_spawn returned status "${record.status}"`;
  return out;
}

/** Every sessions_spawn call among `entries` with how it ended, in call order. */
export function findRecordedSpawns(entries: readonly SessionEntry[]): RecordedSpawn[] {
  return collectSpawnRecords(entries).map(interpretSpawnRecord);
}

/**
 * The runtime trajectory OpenClaw recorded for a session: what each run compiled and sent (`context.compiled`,
 * `prompt.submitted`, `model.completed`, …), read from wherever that OpenClaw version keeps it:
 * - 2026.7.x (JSONL sessions): `<session>.trajectory.jsonl` beside the transcript, or the file a
 *   `<session>.trajectory-path.json` pointer names (`OPENCLAW_TRAJECTORY_DIR` moves it); one event per line,
 *   `{traceSchema: "openclaw-trajectory", schemaVersion: 1, type, ts, seq, sourceSeq, sessionId, runId, data}`;
 * - 2026.8+ (SQLite sessions): the `trajectory_runtime_events` rows of the agent database (same event objects).
 * Lines of another schema or session are left out (as OpenClaw's own reader does); unreadable lines are problems.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isRecord } from '../common/guards';
import { readLines } from './readLines';
import type { LoadedSession } from './sessionParser';
import { readTrajectoryEvents, type TrajectoryEvent } from './sqlite';

export interface SessionTrajectory {
  /** where it was read: the trajectory file, or the agent database */
  source: { storage: 'jsonl'; file: string } | { storage: 'sqlite'; database: string };
  events: TrajectoryEvent[];
  problems: { line: number; message: string }[];
}

/** OpenClaw's trajectory file beside a transcript: never a transcript itself. */
export function isTrajectoryFileName(name: string): boolean {
  return name.endsWith('.trajectory.jsonl');
}

function withoutJsonl(file: string): string {
  return file.endsWith('.jsonl') ? file.slice(0, -'.jsonl'.length) : file;
}

/** The trajectory file OpenClaw 2026.7.x writes for a transcript, or null when there is none. */
export function trajectoryFileOf(sessionFile: string): string | null {
  const beside = `${withoutJsonl(sessionFile)}.trajectory.jsonl`;
  if (existsSync(beside)) return beside;
  const pointer = `${withoutJsonl(sessionFile)}.trajectory-path.json`;
  if (!existsSync(pointer)) return null;
  try {
    const parsed: unknown = JSON.parse(readFileSync(pointer, 'utf8'));
    if (
      isRecord(parsed) &&
      parsed.traceSchema === 'openclaw-trajectory-pointer' &&
      typeof parsed.runtimeFile === 'string'
    )
      return existsSync(parsed.runtimeFile) ? parsed.runtimeFile : null;
  } catch {
    // an unreadable pointer is no trajectory
  }
  return null;
}

function eventOf(parsed: Record<string, unknown>, line: number): TrajectoryEvent {
  const seq =
    typeof parsed.sourceSeq === 'number' ? parsed.sourceSeq : typeof parsed.seq === 'number' ? parsed.seq : line;
  const ts = typeof parsed.ts === 'string' ? Date.parse(parsed.ts) : NaN;
  return {
    sessionId: typeof parsed.sessionId === 'string' ? parsed.sessionId : '',
    seq,
    runId: typeof parsed.runId === 'string' ? parsed.runId : null,
    createdAt: Number.isFinite(ts) ? ts : 0,
    type: typeof parsed.type === 'string' ? parsed.type : null,
    event: parsed,
  };
}

/**
 * The events of a trajectory JSONL file for `sessionId` (all sessions when undefined), in file order; with `type`,
 * only events of that type (a line without the type's text is skipped unparsed, and is no problem).
 */
export async function readTrajectoryFile(
  file: string,
  sessionId?: string,
  type?: string,
): Promise<{ events: TrajectoryEvent[]; problems: SessionTrajectory['problems'] }> {
  const events: TrajectoryEvent[] = [];
  const problems: SessionTrajectory['problems'] = [];
  await readLines(file, (text, line) => {
    if (text.trim() === '' || (type !== undefined && !text.includes(type))) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      problems.push({ line, message: `not JSON (${(error as Error).message.slice(0, 80)})` });
      return;
    }
    if (!isRecord(parsed) || parsed.traceSchema !== 'openclaw-trajectory') {
      problems.push({ line, message: 'not an openclaw-trajectory event' });
      return;
    }
    if (sessionId !== undefined && parsed.sessionId !== sessionId) return;
    if (type !== undefined && parsed.type !== type) return;
    events.push(eventOf(parsed, line));
  });
  return { events, problems };
}

/**
 * The session's recorded trajectory, or null when OpenClaw left none (or trajectories were turned off); with `type`,
 * only the events of that type.
 */
export async function readSessionTrajectory(loaded: LoadedSession, type?: string): Promise<SessionTrajectory | null> {
  const storage = loaded.storage;
  if (storage?.kind === 'sqlite') {
    const events = await readTrajectoryEvents(loaded, type !== undefined ? { type } : {});
    return events.length > 0
      ? { source: { storage: 'sqlite', database: storage.database }, events, problems: [] }
      : null;
  }
  const sessionFile = storage?.file ?? loaded.path;
  if (!sessionFile) return null;
  const file = trajectoryFileOf(sessionFile);
  if (!file) return null;
  const read = await readTrajectoryFile(file, loaded.header.id, type);
  return { source: { storage: 'jsonl', file }, ...read };
}

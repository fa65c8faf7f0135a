/**
 * The plan of a batch (pure): which sessions of a listing are replayed, in which order, where each Recording is
 * written, and the lanes every session runs through (the baseline legacy lane added when it is not asked for).
 */
import { join } from 'node:path';
import type { ListedSession } from '../listSessions';
import type { LaneRequest } from '../../bridge';
import type { BatchJob } from './batchTypes';

/** The spec of the baseline lane tokens are measured against. */
export const BASELINE_SPEC = 'legacy';

export interface BatchLanePlan {
  /** the lanes to replay: the ones asked for, then the baseline when none of them is plain legacy */
  lanes: (string | LaneRequest)[];
  /** the baseline was added (not asked for) */
  baselineAdded: boolean;
}

/** A lane that is plain `legacy` (no option), typed or given as data. */
function isBaseline(lane: string | LaneRequest): boolean {
  return typeof lane === 'string'
    ? lane.trim() === BASELINE_SPEC
    : lane.kind === 'legacy' && Object.keys(lane).length === 1;
}

export function planBatchLanes(asked: readonly (string | LaneRequest)[]): BatchLanePlan {
  const lanes = asked.map((lane) => (typeof lane === 'string' ? lane.trim() : lane)).filter((lane) => lane !== '');
  if (lanes.length === 0) return { lanes: [BASELINE_SPEC], baselineAdded: false };
  if (lanes.some(isBaseline)) return { lanes, baselineAdded: false };
  return { lanes: [...lanes, BASELINE_SPEC], baselineAdded: true };
}

export interface BatchPlan {
  jobs: BatchJob[];
  /** listed but not replayed on their own: subagent sessions (replayed as child lanes of their parent) and reset archives */
  skipped: { subagents: number; archived: number };
}

/** A file name made from a session id: letters, digits, `.`, `_` and `-` only (anything else becomes `_`). */
export function safeFileStem(text: string): string {
  const stem = text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_');
  return stem.slice(0, 120) || 'session';
}

/** `<sessionId>.recording.json`; the agent id goes in front when two agents have a session of that id. */
function recordingFileNames(sessions: readonly ListedSession[]): string[] {
  const idCount = new Map<string, number>();
  for (const s of sessions) idCount.set(s.sessionId, (idCount.get(s.sessionId) ?? 0) + 1);
  const used = new Set<string>();
  return sessions.map((s) => {
    const base = safeFileStem(idCount.get(s.sessionId)! > 1 && s.agentId ? `${s.agentId}-${s.sessionId}` : s.sessionId);
    let name = `${base}.recording.json`;
    for (let n = 2; used.has(name); n++) name = `${base}-${n}.recording.json`;
    used.add(name);
    return name;
  });
}

/**
 * One job per top-level session (not a subagent's, not a reset archive), oldest first so a re-run keeps its order
 * whatever was touched since; with `outDir` each job names its Recording's file there.
 */
export function planBatch(sessions: readonly ListedSession[], options: { outDir?: string } = {}): BatchPlan {
  const skipped = { subagents: 0, archived: 0 };
  const chosen = sessions.filter((s) => {
    if (s.archived) skipped.archived++;
    else if (s.isSubagent) skipped.subagents++;
    return !s.archived && !s.isSubagent;
  });
  const ordered = [...chosen].sort(
    (a, b) => a.mtimeMs - b.mtimeMs || a.agentId.localeCompare(b.agentId) || a.sessionId.localeCompare(b.sessionId),
  );
  const names = recordingFileNames(ordered);
  const jobs = ordered.map((s, index): BatchJob => ({
    index,
    sessionId: s.sessionId,
    ...(s.key ? { key: s.key } : {}),
    agentId: s.agentId,
    storage: s.storage ?? 'jsonl',
    file: s.file,
    ...(options.outDir ? { recordingFile: join(options.outDir, names[index]!) } : {}),
  }));
  return { jobs, skipped };
}

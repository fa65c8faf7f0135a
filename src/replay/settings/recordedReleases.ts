/**
 * The OpenClaw release of each recorded run: every run OpenClaw 2026.4.22+ records in its trajectory starts with a
 * `trace.metadata` event whose `data.harness.version` is the running release (5.2 selection-*.js
 * `buildTrajectoryRunMetadata`: `harness: {type: "openclaw", version: VERSION, …}`), in
 * `<sessionId>.trajectory.jsonl` beside a JSONL transcript or the agent database's `trajectory_runtime_events` rows.
 * A session kept across upgrades holds runs of several releases (e.g. 2026.4.29, then 2026.5.2).
 *
 * A run belongs to the turn whose user message it appended: the run's metadata is recorded before its prompt is
 * sent, so a turn ran as the release of the latest run recorded at or before its user message (turns before the
 * first recorded run are taken as that run's release).
 */
import { statSync } from 'node:fs';
import { isRecord } from '../../common/guards';
import {
  getActivePath,
  parseSessionTimestampMs,
  readSessionTrajectory,
  trajectoryFileOf,
  type LoadedSession,
} from '../../transcripts';
import { parseOpenClawVersion } from '../lane/openclawVersion';
import { isUserMessageEntry } from '../session/sessionTurns';

export interface RunRelease {
  version: string;
  /** when the run's metadata was recorded (ms; 0 when unknown) */
  at: number;
  runId: string | null;
}

import type { TurnRelease } from '../lane/openclawVersion';

export type { TurnRelease };

export interface RecordedReleases {
  /** where they were read, for a person */
  where: string;
  runs: RunRelease[];
}

function harnessVersion(event: Record<string, unknown>): string | undefined {
  const data = isRecord(event.data) ? event.data : undefined;
  const harness = data && isRecord(data.harness) ? data.harness : undefined;
  const version = typeof harness?.version === 'string' ? harness.version.trim() : '';
  return parseOpenClawVersion(version) ? version : undefined;
}

/** Releases by trajectory file or database and its mtime: a followed session is replayed again and again. */
const cache = new Map<string, RecordedReleases | null>();

function cacheKey(session: LoadedSession): string | undefined {
  const storage = session.storage;
  const file =
    storage?.kind === 'sqlite'
      ? storage.database
      : trajectoryFileOf(storage?.kind === 'jsonl' ? storage.file : session.path);
  if (!file) return undefined;
  try {
    const stat = statSync(file);
    return `${file}\0${session.header.id}\0${stat.mtimeMs}\0${stat.size}`;
  } catch {
    return undefined;
  }
}

/** The release of every run the session's trajectory records, in order; null when it records none. */
export async function recordedRunReleases(session: LoadedSession): Promise<RecordedReleases | null> {
  if (session.headerSynthesized || !(session.storage?.kind === 'sqlite' || session.storage?.file || session.path))
    return null;
  const key = cacheKey(session);
  if (key === undefined) return null;
  if (cache.has(key)) return cache.get(key)!;
  let found: RecordedReleases | null = null;
  try {
    const trajectory = await readSessionTrajectory(session, 'trace.metadata');
    const runs: RunRelease[] = [];
    for (const e of trajectory?.events ?? []) {
      const version = harnessVersion(e.event);
      if (version) runs.push({ version, at: e.createdAt, runId: e.runId });
    }
    if (trajectory && runs.length > 0) {
      const where =
        trajectory.source.storage === 'jsonl'
          ? `the session trajectory ${trajectory.source.file}`
          : "the agent database's trajectory rows";
      found = { where, runs };
    }
  } catch {
    found = null; // an unreadable trajectory names no release
  }
  if (cache.size > 64) cache.clear();
  cache.set(key, found);
  return found;
}

/**
 * The release each turn of `session`'s active branch ran as, as ranges of turns (the first from turn 0), and how many
 * turns there are.
 */
export function turnReleasesOf(
  session: LoadedSession,
  runs: readonly RunRelease[],
): { ranges: TurnRelease[]; turns: number } {
  const timed = runs.filter((r) => r.at > 0).sort((a, b) => a.at - b.at);
  if (runs.length === 0) return { ranges: [], turns: 0 };
  // without times the runs cannot be placed: every turn is taken as the last run's release
  let current = timed.length > 0 ? timed[0]!.version : runs[runs.length - 1]!.version;
  const ranges: TurnRelease[] = [];
  let turn = 0;
  let next = 0;
  for (const entry of getActivePath(session)) {
    if (!isUserMessageEntry(entry)) continue;
    const at = parseSessionTimestampMs(entry.timestamp) ?? 0;
    while (next < timed.length && timed[next]!.at <= at) current = timed[next++]!.version;
    if (ranges.length === 0 || ranges[ranges.length - 1]!.version !== current)
      ranges.push({ firstTurn: turn, version: current });
    turn++;
  }
  if (ranges.length === 0) ranges.push({ firstTurn: 0, version: current });
  return { ranges, turns: turn };
}

/** The distinct releases of `runs`, oldest run first. */
export function distinctReleases(runs: readonly RunRelease[]): string[] {
  const ordered = [...runs].sort((a, b) => a.at - b.at);
  return [...new Set(ordered.map((r) => r.version))];
}

/** "turns 1–12 ran 2026.4.29, turns 13–30 ran 2026.5.2" (turns counted from 1, as the app shows them). */
export function describeTurnReleases(ranges: readonly TurnRelease[], turns: number): string {
  return ranges
    .map((r, i) => {
      const first = r.firstTurn + 1;
      const last = Math.max(first, i + 1 < ranges.length ? ranges[i + 1]!.firstTurn : turns);
      return `${first === last ? `turn ${first}` : `turns ${first}–${last}`} ran ${r.version}`;
    })
    .join(', ');
}

/**
 * Which OpenClaw release a replay behaves as: the one asked for, else the one that wrote the session when the
 * session records it, else the newest profile. Where a state dir records the release, most specific first:
 * 1. the session's trajectory: each run's `trace.metadata` event names its release (`data.harness.version`, OpenClaw
 *    2026.4.22+; `<sessionId>.trajectory.jsonl` beside a JSONL transcript, the agent database's trajectory rows for a
 *    SQLite session) — recordedReleases.ts. A session that spans upgrades is replayed as its latest run's release;
 *    the release of every turn's own run is kept (`turnReleases`) for what the replay decides per turn (the
 *    tool-call id rewrite), and `from` says the span;
 * 2. SQLite sessions (2026.7.2 betas, 2026.8+): the agent database's `schema_meta.app_version`;
 * 3. `openclaw.json` `meta.lastTouchedVersion`: the release that last wrote the config, used when it agrees with the
 *    session's storage era (JSONL header `version: 4` from the 2026.8+ session manager, 9.6 session-manager-*.mjs;
 *    `version: 3` from the 2026.7 line and earlier, 7.35 session-manager-*.js);
 * 4. the storage era alone: the newest release of that era.
 */
import { statSync } from 'node:fs';
import { withAgentDatabase, type LoadedSession } from '../../transcripts';
import { readOpenClawJson } from './openclawJson';
import { stateDirOfSession } from './sessionStateDir';
import {
  NEWEST_2026_7_VERSION,
  NEWEST_OPENCLAW_VERSION,
  openClawVersionProfile,
  parseOpenClawVersion,
  type VersionChoice,
  type VersionChoiceHow,
} from '../lane/openclawVersion';
import { describeTurnReleases, distinctReleases, recordedRunReleases, turnReleasesOf } from './recordedReleases';

export type { VersionChoice, VersionChoiceHow };

/** A release ContextScope has a profile for, else undefined. */
function profiled(version: string | undefined): string | undefined {
  if (!version) return undefined;
  try {
    openClawVersionProfile(version);
  } catch {
    return undefined;
  }
  return version.trim();
}

function isSqliteEra(version: string): boolean {
  const p = parseOpenClawVersion(version)!;
  return p.year > 2026 || p.month >= 8 || (p.month === 7 && p.patch === 2 && p.beta);
}

/** app_version by database file and its mtime: a followed session is replayed again and again. */
const appVersions = new Map<string, string | undefined>();

async function sqliteAppVersion(session: LoadedSession): Promise<string | undefined> {
  const storage = session.storage;
  if (storage?.kind !== 'sqlite') return undefined;
  let key: string;
  try {
    key = `${storage.database}\0${statSync(storage.database).mtimeMs}`;
  } catch {
    return undefined;
  }
  if (appVersions.has(key)) return appVersions.get(key);
  let version: string | undefined;
  try {
    const read = await withAgentDatabase(storage.database, storage.agentId, () => null);
    version = read.schema.meta?.appVersion ?? undefined;
  } catch {
    version = undefined;
  }
  if (appVersions.size > 64) appVersions.clear();
  appVersions.set(key, version);
  return version;
}

export async function chooseOpenClawVersion(input: {
  requested?: string;
  session: LoadedSession;
  lastTouchedVersion?: string;
}): Promise<VersionChoice> {
  if (input.requested !== undefined) {
    openClawVersionProfile(input.requested); // throws with the accepted forms when unknown
    return { version: input.requested.trim(), how: 'flag' };
  }
  const { session } = input;
  const fromRuns = await releaseOfRuns(session);
  if (fromRuns) return fromRuns;
  const app = profiled(await sqliteAppVersion(session));
  if (app) return { version: app, how: 'inferred', from: `the agent database's schema_meta (OpenClaw ${app})` };
  if (session.storage?.kind === 'sqlite') {
    return { version: NEWEST_OPENCLAW_VERSION, how: 'inferred', from: 'SQLite storage (OpenClaw 2026.8+)' };
  }
  if (session.headerSynthesized) return { version: NEWEST_OPENCLAW_VERSION, how: 'newest' };
  const touched = profiled(input.lastTouchedVersion);
  const headerV4 = session.sourceVersion >= 4;
  if (touched && isSqliteEra(touched) === headerV4) {
    return {
      version: touched,
      how: 'inferred',
      from: `openclaw.json meta.lastTouchedVersion (session header version ${session.sourceVersion})`,
    };
  }
  if (headerV4) {
    return {
      version: NEWEST_OPENCLAW_VERSION,
      how: 'inferred',
      from: 'the session header (version 4: OpenClaw 2026.8+)',
    };
  }
  return {
    version: NEWEST_2026_7_VERSION,
    how: 'inferred',
    from: `the session header (version ${session.sourceVersion}: the JSONL era, the newest 2026.7 release)`,
  };
}

/** The latest run's release when the session's trajectory records its runs' releases (see the file comment). */
async function releaseOfRuns(session: LoadedSession): Promise<VersionChoice | undefined> {
  const recorded = await recordedRunReleases(session);
  const runs = recorded?.runs.filter((r) => profiled(r.version) !== undefined) ?? [];
  if (!recorded || runs.length === 0) return undefined;
  const releases = distinctReleases(runs);
  const latest = releases[releases.length - 1]!;
  const plural = runs.length === 1 ? '1 run' : `${runs.length} runs`;
  if (releases.length === 1) {
    return {
      version: latest,
      how: 'inferred',
      from: `${recorded.where}: trace.metadata of ${plural} (OpenClaw ${latest})`,
    };
  }
  const { ranges, turns } = turnReleasesOf(session, runs);
  return {
    version: latest,
    how: 'inferred',
    from:
      `${recorded.where}: trace.metadata of ${plural}, spanning OpenClaw ${releases[0]}..${latest} ` +
      `(${describeTurnReleases(ranges, turns)}); replayed as ${latest}, the latest, with each turn's tool-call ids ` +
      'as its own run sent them',
    ...(ranges.length > 1 ? { turnReleases: ranges } : {}),
  };
}

/** "2026.9.6 (flag)", "2026.7.35 (inferred from …)", "2026.9.6 (newest)". */
export function describeVersionChoice(choice: VersionChoice): string {
  if (choice.how === 'inferred') return `${choice.version} (inferred from ${choice.from ?? 'the session'})`;
  return `${choice.version} (${choice.how})`;
}

/**
 * The version a replay of `session` behaves as when the caller may not have named one: `requested`, else the
 * session's (the state dir's openclaw.json consulted for `meta.lastTouchedVersion`; an unreadable one is ignored
 * here — resolveReplaySettings reports it), else the newest.
 */
export async function chooseReplayVersion(session: LoadedSession, requested?: string): Promise<VersionChoice> {
  let lastTouchedVersion: string | undefined;
  const stateDir = requested === undefined ? stateDirOfSession(session) : undefined;
  if (stateDir) {
    try {
      lastTouchedVersion = readOpenClawJson(stateDir)?.lastTouchedVersion;
    } catch {
      lastTouchedVersion = undefined;
    }
  }
  return chooseOpenClawVersion({
    ...(requested !== undefined ? { requested } : {}),
    session,
    ...(lastTouchedVersion ? { lastTouchedVersion } : {}),
  });
}

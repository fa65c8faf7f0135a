/**
 * The OpenClaw release a replay behaves as: a version parses to one of the behaviour profiles of
 * `versionProfiles.ts` — 2026.3.x – 2026.6.x by the changes up to that release (`behaviourOfRelease`: those lines
 * changed behaviour inside a month), 2026.7, the 2026.7.2 betas, 2026.8+ — each listing what it changes. Releases
 * before 2026.3 are refused: ContextScope has read no dist of theirs.
 *
 * 2026.8+ (and the 2026.7.2 betas that introduced SQLite transcripts): each logical turn needs durable turn
 * advancement. A configured engine that does not declare `transcriptSemantics.currentTurnFence:
 * "before-current-turn-entry-v1"` and `turnAdvancementIdempotency: "atomic-idempotent-v1"` and implement
 * `commitTurn` has that turn run on `legacy` (no quarantine; retried next turn); one that does gets
 * `commitTurn({advancementKey, admission, terminal, messages…})` after an accepted turn instead of afterTurn/ingest,
 * then `maintain("turn")`. The host passes `sessionTarget` and `runtimeContext.transcriptStorage: {kind: "sqlite"}`.
 * (openclaw@2026.9.6 dist: context-engine/host-compat.ts, agents/harness/context-engine-logical-turn.ts and
 * context-engine-turn-attempt.ts.)
 */
import {
  behaviourOfRelease,
  describeBehaviour,
  LINE_2026_7,
  LINE_2026_7_2_BETA,
  LINE_2026_8,
  type VersionBehaviour,
} from './versionProfiles';

/** From turn `firstTurn` on (until the next range), the session's turns ran as `version`. */
export interface TurnRelease {
  firstTurn: number;
  version: string;
}

export type VersionChoiceHow = 'flag' | 'inferred' | 'newest';

export interface VersionChoice {
  version: string;
  how: VersionChoiceHow;
  /** for `inferred`: where the version came from, for a person */
  from?: string;
  /**
   * the release each turn of the session ran as, when its trajectory records its runs (ranges by first turn); set
   * only when the session spans releases
   */
  turnReleases?: TurnRelease[];
}

export interface OpenClawVersionProfile extends VersionBehaviour {
  /** the release as given */
  version: string;
  /** what the profile changes, one line each */
  changes: string[];
}

/** The newest release ContextScope has a checked profile for: a replay's version when the session names none. */
export const NEWEST_OPENCLAW_VERSION = '2026.9.6';
/** The newest release of the JSONL-era 2026.7 line (extended stable). */
export const NEWEST_2026_7_VERSION = '2026.7.35';
/** What a replay behaves as when no version is given and none is inferred. */
export const DEFAULT_OPENCLAW_VERSION = NEWEST_OPENCLAW_VERSION;
/** The oldest release ContextScope has a profile for. */
export const OLDEST_OPENCLAW_VERSION = '2026.3.1';

/** `year.month.patch`, then `-beta.N` or a re-publish `-N` (2026.3.23-1, 2026.5.3-1, 2026.7.1-2 are on the registry) */
const VERSION = /^(\d{4})\.(\d{1,2})\.(\d+)(?:-beta\.(\d+)|-(\d+))?$/;

/** A release as year, month, patch and beta flag, or undefined when it is not one. */
export function parseOpenClawVersion(
  version: string,
): { year: number; month: number; patch: number; beta: boolean } | undefined {
  const match = VERSION.exec(version.trim());
  if (!match) return undefined;
  return { year: Number(match[1]), month: Number(match[2]), patch: Number(match[3]), beta: match[4] !== undefined };
}

function behaviourOf(parsed: { year: number; month: number; patch: number; beta: boolean }): VersionBehaviour {
  const { year, month, patch, beta } = parsed;
  if (year > 2026 || month >= 8) return LINE_2026_8;
  if (month === 7 && patch === 2 && beta) return LINE_2026_7_2_BETA;
  if (month === 7) return LINE_2026_7;
  return behaviourOfRelease(`${year}.${month}.${patch}`);
}

export function openClawVersionProfile(version: string = DEFAULT_OPENCLAW_VERSION): OpenClawVersionProfile {
  const parsed = parseOpenClawVersion(version);
  if (!parsed) {
    throw new Error(
      `Unknown OpenClaw version "${version}": give a release such as 2026.7.1, 2026.4.25 or 2026.9.6 (year.month.patch, optionally -beta.N).`,
    );
  }
  const { year, month } = parsed;
  if (year < 2026 || (year === 2026 && month < 3)) {
    throw new Error(
      `OpenClaw ${version.trim()} is older than any release ContextScope has a profile for (${OLDEST_OPENCLAW_VERSION} and later): ` +
        'replay it as the oldest one with --openclaw-version 2026.3.1, or as the release you know behaves like it.',
    );
  }
  const behaviour = behaviourOf(parsed);
  return { ...behaviour, version: version.trim(), changes: describeBehaviour(behaviour) };
}

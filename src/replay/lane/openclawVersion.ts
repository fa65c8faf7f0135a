/**
 * The OpenClaw release a replay behaves as: a version parses to one of the behaviour profiles of
 * `versionProfiles.ts` (2026.7, the 2026.7.2 betas, 2026.8+), each listing what it changes.
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
  LINE_2026_7,
  LINE_2026_7_2_BETA,
  LINE_2026_8,
  describeBehaviour,
  type VersionBehaviour,
} from './versionProfiles';

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

const VERSION = /^(\d{4})\.(\d{1,2})\.(\d+)(?:-beta\.(\d+))?$/;

/** A release as year, month, patch and beta flag, or undefined when it is not one. */
export function parseOpenClawVersion(
  version: string,
): { year: number; month: number; patch: number; beta: boolean } | undefined {
  const match = VERSION.exec(version.trim());
  if (!match) return undefined;
  return { year: Number(match[1]), month: Number(match[2]), patch: Number(match[3]), beta: match[4] !== undefined };
}

export function openClawVersionProfile(version: string = DEFAULT_OPENCLAW_VERSION): OpenClawVersionProfile {
  const parsed = parseOpenClawVersion(version);
  if (!parsed) {
    throw new Error(
      `Unknown OpenClaw version "${version}": give a release such as 2026.7.1, 2026.7.35 or 2026.9.6 (year.month.patch, optionally -beta.N).`,
    );
  }
  const { year, month, patch, beta } = parsed;
  if (year < 2026 || (year === 2026 && month < 7)) {
    throw new Error(`OpenClaw ${version} predates the context-engine runtime ContextScope models (2026.7 and later).`);
  }
  const behaviour =
    year > 2026 || month >= 8 ? LINE_2026_8 : month === 7 && patch === 2 && beta ? LINE_2026_7_2_BETA : LINE_2026_7;
  return { ...behaviour, version: version.trim(), changes: describeBehaviour(behaviour) };
}

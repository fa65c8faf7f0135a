/**
 * The OpenClaw release a replay behaves as. Releases differ in how the host drives an engine per turn; this is
 * the one place that says which behaviour belongs to which release (checked against OpenClaw's own code).
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

export interface OpenClawVersionProfile {
  /** the release as given */
  version: string;
  /** every logical turn needs commitTurn + transcriptSemantics, else it runs on legacy */
  durableTurnCommit: boolean;
}

/** What a replay behaves as when no version is given: the 2026.7 line (E2 contract, JSONL transcripts). */
export const DEFAULT_OPENCLAW_VERSION = '2026.7.1';

const VERSION = /^(\d{4})\.(\d{1,2})\.(\d+)(?:-beta\.(\d+))?$/;

export function openClawVersionProfile(version: string = DEFAULT_OPENCLAW_VERSION): OpenClawVersionProfile {
  const match = VERSION.exec(version.trim());
  if (!match) {
    throw new Error(
      `Unknown OpenClaw version "${version}": give a release such as 2026.7.1, 2026.7.35 or 2026.9.6 (year.month.patch, optionally -beta.N).`,
    );
  }
  const [year, month, patch] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const beta = match[4] !== undefined;
  if (year < 2026 || (year === 2026 && month < 7)) {
    throw new Error(`OpenClaw ${version} predates the context-engine runtime ContextScope models (2026.7 and later).`);
  }
  const durable = year > 2026 || month >= 8 || (month === 7 && patch === 2 && beta);
  return { version: version.trim(), durableTurnCommit: durable };
}

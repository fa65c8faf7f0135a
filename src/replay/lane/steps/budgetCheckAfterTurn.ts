/**
 * The budget check after a turn that compacts an engine owning compaction (versionProfiles.ts
 * `ownerCompactionAfterTurn`). After an embedded run `openclaw agent` persists the turn and runs
 * `runCliTurnCompactionLifecycle` (6.11/7.35 agent-command-*.js, cli-compaction-*.js): the pre-prompt check with the
 * session's messages and an empty prompt (no system prompt) against window − reserve, and the session's token snapshot
 * — the prompt tokens the provider reported for the turn's last call (usage-*.js `deriveSessionTotalTokens`); if
 * either is over the prompt budget (the replay takes the snapshot only, see `measures`), the configured engine gets `compact({force: true, compactionTarget: "budget",
 * currentTokenCount})` and, when it compacted, `maintain("compaction")`. An owning engine has no harness
 * auto-compaction, so this is where OpenClaw compacts it; at 32k with 2026.7's reserve of 20,000 the system prompt
 * and tool schemas alone are over the 12,000-token budget, so it compacts after every turn.
 *
 * The provider's count of the lane's prompt is the one the attempt's provider check made (providerCheck.ts: the
 * recorded usage where the lane sent what OpenClaw sent, else the lane's tiktoken count scaled by the session's
 * measured ratio, which carries the system prompt and tool schemas the recording does not hold).
 */
import type { TurnDraft } from '../../recording/turnDraft';
import { compactOnEngine } from '../laneCompactions';
import type { Lane } from '../laneContext';
import type { AttemptResult } from './attempt';

/**
 * The provider's count of the turn's prompt (the token snapshot) against the prompt budget. OpenClaw's CLI check also
 * takes its estimate of the whole session: an owner's transcript never gets a compaction entry, so once that is over
 * the budget `openclaw agent` compacts the owner after every turn. The replay leaves that measure out: the gateway's
 * check before a run (`runPreflightCompactionIfNeeded`, agent-runner.runtime-*.js) reads the usage, and a replay
 * cannot tell which path wrote the session; the recorded runs match either way.
 */
function measures(draft: TurnDraft, attempt: AttemptResult) {
  const check = draft.providerChecks.at(-1);
  const snapshot = check ? (check.providerTokens ?? check.tiktokenTokens) : attempt.precheck.estimatedTokens;
  const source = check?.source === 'recorded' ? 'recorded usage' : 'estimate';
  // the precheck record has the budget by the release's reserve rule, computed even when the precheck was skipped
  return { limit: attempt.precheck.promptBudgetBeforeReserve, currentTokenCount: snapshot, source } as const;
}

/** Run the check after the turn's own finalize; true when the owning engine compacted. */
export async function compactOwnerOverBudget(lane: Lane, draft: TurnDraft, attempt: AttemptResult): Promise<boolean> {
  const engine = lane.configuredEngine;
  if (lane.state.profile.ownerCompactionAfterTurn !== 'budget-check' || engine.info.ownsCompaction !== true) {
    return false;
  }
  const { limit, currentTokenCount, source } = measures(draft, attempt);
  if (currentTokenCount <= limit) return false;
  return compactOnEngine(
    lane,
    draft,
    engine,
    'budget',
    { tokenBudget: lane.group.contextWindow, currentTokenCount, force: true, compactionTarget: 'budget' },
    attempt.runtimeSettings,
    { measure: 'context', tokens: currentTokenCount, source, limit },
  );
}

/**
 * The budget check after a turn that compacts an engine owning compaction (versionProfiles.ts
 * `ownerCompactionAfterTurn`). After an embedded run `openclaw agent` persists the turn and runs
 * `runCliTurnCompactionLifecycle` (6.11/7.35 agent-command-*.js, cli-compaction-*.js): the pre-prompt check with the
 * session's messages and an empty prompt (no system prompt) against window − reserve, and the session's token snapshot
 * — the prompt tokens the provider reported for the turn's last call (usage-*.js `deriveSessionTotalTokens`); if
 * either is over the prompt budget, the configured engine gets `compact({force: true, compactionTarget: "budget",
 * currentTokenCount})` and, when it compacted, `maintain("compaction")`. An owning engine has no harness
 * auto-compaction, so this is where OpenClaw compacts it; at 32k with 2026.7's reserve of 20,000 the system prompt
 * and tool schemas alone are over the 12,000-token budget, so it compacts after every turn.
 *
 * The provider's count of the lane's prompt is the one the attempt's provider check made (providerCheck.ts: the
 * recorded usage where the lane sent what OpenClaw sent, else the lane's tiktoken count scaled by the session's
 * measured ratio, which carries the system prompt and tool schemas the recording does not hold).
 */
import { computePromptPrecheck } from '../../../runtime';
import { estimatePrecheckTokensFromMessageSum } from '../../../tokens';
import type { TurnDraft } from '../../recording/turnDraft';
import { compactOnEngine } from '../laneCompactions';
import type { Lane } from '../laneContext';
import { reducibleToolResultChars } from '../toolResultTruncation';
import type { AttemptResult } from './attempt';

/** The check's two measures: its estimate of the session's messages and the provider's count of the last prompt. */
function measures(lane: Lane, draft: TurnDraft, attempt: AttemptResult) {
  const messages = lane.pipelineContext().messages;
  const messageTokensSum = lane.classify(messages).stored.reduce((s, m) => s + m.precheckTokens, 0);
  const estimate = estimatePrecheckTokensFromMessageSum(
    { messageTokensSum, systemPrompt: '', prompt: '' },
    lane.state.profile.cjkCounting,
  );
  const check = draft.providerChecks.at(-1);
  const snapshot = check ? (check.providerTokens ?? check.tiktokenTokens) : attempt.precheck.estimatedTokens;
  const computed = computePromptPrecheck({
    estimatedTokens: estimate,
    contextTokenBudget: lane.group.contextWindow,
    reserveTokens: lane.group.settings.reserveTokens,
    reducibleToolResultChars: reducibleToolResultChars(messages, lane.group.contextWindow),
    reserveRule: lane.state.profile.reserveRule,
  });
  const source = check?.source === 'recorded' && snapshot >= estimate ? 'recorded usage' : 'estimate';
  return { computed, currentTokenCount: Math.max(estimate, snapshot), source } as const;
}

/** Run the check after the turn's own finalize; true when the owning engine compacted. */
export async function compactOwnerOverBudget(lane: Lane, draft: TurnDraft, attempt: AttemptResult): Promise<boolean> {
  const engine = lane.configuredEngine;
  if (lane.state.profile.ownerCompactionAfterTurn !== 'budget-check' || engine.info.ownsCompaction !== true) {
    return false;
  }
  const { computed, currentTokenCount, source } = measures(lane, draft, attempt);
  const limit = computed.promptBudgetBeforeReserve;
  if (!computed.shouldCompact && currentTokenCount <= limit) return false;
  return compactOnEngine(
    lane,
    draft,
    engine,
    'auto',
    { tokenBudget: lane.group.contextWindow, currentTokenCount, force: true, compactionTarget: 'budget' },
    attempt.runtimeSettings,
    { measure: 'context', tokens: currentTokenCount, source, limit },
  );
}

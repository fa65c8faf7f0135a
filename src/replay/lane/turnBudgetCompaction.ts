/**
 * The compaction `openclaw agent` runs after a turn's run (`runCliTurnCompactionLifecycle`, cli-compaction-*.js of
 * 4.25 – 7.35 and 9.6, called from agent-command-*.js once the turn's transcript is persisted): it measures the
 * session the way the pre-prompt precheck measures a prompt — its messages with an empty prompt and no system prompt
 * — takes the larger of that and the session's last prompt tokens, and when that exceeds the prompt budget (window −
 * effective reserve) it calls the configured engine's `compact({force: true, compactionTarget: "budget"})`
 * (`compactCliTranscript`, `trigger: "cli_budget"`). Legacy delegates that to the runtime: a compaction with the
 * keep-recent cut, appended after the turn.
 *
 * It measures every message entry on the branch, compactions ignored (4.25 – 7.35 `getSessionBranchMessages`), so
 * once the raw history has grown past the budget every later turn compacts again, whatever the compactions kept.
 * Which releases run it: versionProfiles.ts `turnBudgetCompaction`. Which sessions: the step belongs to the `agent`
 * command, not to the Gateway's replies (those run their own preflight compaction before a run, agent-runner
 * `runPreflightCompactionIfNeeded`, not replayed), so the replay runs it for the sessions `openclaw agent
 * --session-id` writes, whose key it builds as `agent:<agentId>:explicit:<sessionId>` (7.35 session-*.js
 * `resolveExplicitAgentSessionKey`); sessions the command reached by `--to` or `--session-key` are not told apart
 * from Gateway ones.
 */
import type { AgentMessage } from '../../contract';
import type { CompactionCause } from '../../contract/recording';
import { computePromptPrecheck } from '../../runtime';
import {
  applyPrecheckSafetyMargin,
  estimatePrecheckMessageTokens,
  estimatePrecheckTokensFromMessageSum,
} from '../../tokens';
import type { TurnDraft } from '../recording/turnDraft';
import { compactOnEngine } from './laneCompactions';
import type { Lane } from './laneContext';
import { ownRun, withoutTrailingCliNotices } from './laterRuns';
import { recordedUsageApplies } from './recordedUsage';

type BudgetCause = Extract<CompactionCause, { measure: 'session' }>;

/** A session `openclaw agent --session-id` created (its synthetic key). */
export function isExplicitSessionIdRun(sessionKey: string | null): boolean {
  return sessionKey !== null && /^agent:[^:]+:explicit:/.test(sessionKey);
}

/** Every message on the branch, compactions ignored (CLI notices later runs wrote at its end aside). */
function measuredMessages(lane: Lane): { message: AgentMessage; key: string }[] {
  const onBranch = lane.transcript
    .activePath()
    .flatMap((entry) =>
      entry.type === 'message' ? [{ message: entry.message, key: lane.transcript.keyOf(entry.id) }] : [],
    );
  const kept = withoutTrailingCliNotices(onBranch.map((m) => m.message)).length;
  return onBranch.slice(0, kept);
}

/**
 * The precheck estimate of `messages` with an empty prompt, by the release's estimator (as the precheck: the LLM
 * boundary from 2026.5.22, the harness's chars/4 × 1.2 before).
 */
function sessionEstimate(lane: Lane, messages: readonly { message: AgentMessage; key: string }[]): number {
  const { profile } = lane.state;
  const stored = (m: { message: AgentMessage; key: string }) => lane.state.table.get(m.key);
  if (profile.precheckEstimator === 'harness-chars') {
    return applyPrecheckSafetyMargin(messages.reduce((s, m) => s + (stored(m)?.estTokens ?? 0), 0));
  }
  const sum = messages.reduce(
    (s, m) => s + (stored(m)?.precheckTokens ?? estimatePrecheckMessageTokens(m.message, profile.cjkCounting)),
    0,
  );
  return estimatePrecheckTokensFromMessageSum({ messageTokensSum: sum, prompt: '' }, profile.cjkCounting);
}

/**
 * The session's `totalTokens` after the run: the prompt tokens of the turn's last request, as the provider reported
 * them on the last assistant message — only while the lane's context is the one OpenClaw sent (recordedUsage.ts).
 */
function lastPromptTokens(lane: Lane, draft: TurnDraft, turn: number, newMessages: readonly AgentMessage[]): number {
  if (!recordedUsageApplies(lane, draft, turn)) return 0;
  for (let i = newMessages.length - 1; i >= 0; i--) {
    const usage = (newMessages[i] as { role: string; usage?: Record<string, unknown> }).usage;
    if (newMessages[i]!.role !== 'assistant' || !usage) continue;
    const count = (key: string) => (typeof usage[key] === 'number' ? (usage[key] as number) : 0);
    return count('input') + count('cacheRead') + count('cacheWrite');
  }
  return 0;
}

/** The after-run measure and whether it exceeds the prompt budget (undefined when the release has no such step). */
export function turnBudgetCause(
  lane: Lane,
  draft: TurnDraft,
  turn: number,
  newMessages: readonly AgentMessage[],
): { cause: BudgetCause; exceeds: boolean } | undefined {
  if (lane.state.profile.turnBudgetCompaction === 'none') return undefined;
  const estimate = sessionEstimate(lane, measuredMessages(lane));
  const usage = lastPromptTokens(lane, draft, turn, newMessages);
  const tokens = Math.max(estimate, usage);
  const { promptBudgetBeforeReserve } = computePromptPrecheck({
    estimatedTokens: tokens,
    contextTokenBudget: lane.group.contextWindow,
    reserveTokens: lane.group.settings.reserveTokens,
    // the route does not matter here: over the budget compacts whichever route the tool results allow
    reducibleToolResultChars: 0,
    reserveRule: lane.state.profile.reserveRule,
  });
  const source = usage > estimate ? 'prompt usage' : 'session estimate';
  return {
    cause: { measure: 'session', tokens, limit: promptBudgetBeforeReserve, source },
    exceeds: tokens > promptBudgetBeforeReserve,
  };
}

/**
 * Once the turn's run is over (its reply appended, the harness's auto-compaction, afterTurn and maintenance done):
 * compact through the configured engine when the session exceeds the prompt budget. `appended` is the turn's new
 * messages; notices later runs wrote are not the run's. Only a legacy lane runs it here; a plugin engine gets the
 * same call in OpenClaw (its own `compact()`, then `maintain`), not replayed yet.
 */
export async function compactAfterRunIfOverBudget(
  lane: Lane,
  draft: TurnDraft,
  turn: number,
  appended: { newMessages: readonly AgentMessage[]; newMessageKeys: readonly string[] },
): Promise<void> {
  const engine = lane.configuredEngine;
  if (engine.info.id !== 'legacy' || !isExplicitSessionIdRun(lane.sessionKey)) return;
  const measured = turnBudgetCause(lane, draft, turn, ownRun(appended).newMessages);
  if (!measured?.exceeds) return;
  await compactOnEngine(
    lane,
    draft,
    engine,
    'budget',
    { force: true, tokenBudget: lane.group.contextWindow, currentTokenCount: measured.cause.tokens },
    undefined,
    measured.cause,
  );
}

import type { AgentMessage, ContextEngineRuntimeSettings, ToolResultMessage } from '../../../contract';
import type { CompactionCause, PrecheckRecord } from '../../../contract/recording';
import { PRECHECK_OVERFLOW_ERROR_MESSAGE } from '../../../runtime';
import type { deriveAssembleTokenBudget } from '../../../tokens';
import type { TurnDraft } from '../../recording/turnDraft';
import type { CompactionOutcome } from '../../findings/computeTurnFindings';
import { compactOnEngine } from '../laneCompactions';
import { describeProviderCount } from '../providerCheck';
import { noteProviderRecovery } from '../recordedUsage';
import type { Lane } from '../laneContext';
import { truncateToolResult } from '../toolResultTruncation';
import { assembleContext, type AssembledContext } from './assemble';
import { bootstrapExistingTranscript } from './bootstrap';
import { runLlmInputHooks, runPromptBuildHooks } from '../hooks';
import { admittedAttemptLine, precheckPrompt, providerOverflow, type PromptOverflow } from './precheck';

/** OpenClaw retries overflow recovery a bounded number of times per run. */
export const MAX_OVERFLOW_COMPACTION_ATTEMPTS = 3;

export type AssembleBudget = ReturnType<typeof deriveAssembleTokenBudget>;

/** One attempt at building the prompt: bootstrap, assemble, precheck. */
export interface AttemptResult extends AssembledContext {
  runtimeSettings: ContextEngineRuntimeSettings;
  precheck: PrecheckRecord;
  overflow?: PromptOverflow;
}

async function runAttempt(
  lane: Lane,
  draft: TurnDraft,
  prompt: string,
  budget: AssembleBudget,
): Promise<AttemptResult> {
  const runtimeSettings = lane.runtimeSettings(budget.tokenBudget);
  await bootstrapExistingTranscript(lane, draft, runtimeSettings);
  const context = await assembleContext(lane, draft, prompt, budget.tokenBudget, runtimeSettings);
  // plugin prompt hooks run after assemble and change what is sent (and prechecked), as in OpenClaw
  const hooked = await runPromptBuildHooks(lane, draft, prompt, context.assembled, context.result);
  const sent = hooked?.prompt ?? prompt;
  const { precheck, systemPrompt, overflow } = precheckPrompt(lane, context, sent, hooked?.systemPrompt);
  if (precheck.onlyLogged) draft.warn(admittedAttemptLine(lane, precheck));
  await runLlmInputHooks(lane, draft, { systemPrompt, prompt: sent, messages: context.assembled });
  await lane.state.table.ensureCounted(context.stored);
  const attempt: AttemptResult = { ...context, runtimeSettings, precheck };
  const overflowed =
    overflow ?? (await providerOverflow(lane, draft, context.stored, systemPrompt, sent, precheck.route));
  if (overflowed) attempt.overflow = overflowed;
  return attempt;
}

/** OpenClaw's estimate of the messages an attempt assembled. */
export function assembledEstimate(attempt: AttemptResult): number {
  return attempt.stored.reduce((sum, stored) => sum + stored.estTokens, 0);
}

/** Truncate oversized tool results in the lane transcript (the precheck's truncate route); true when any was. */
function truncateOversizedToolResults(lane: Lane): boolean {
  const replacements: { entryId: string; message: AgentMessage }[] = [];
  for (const entry of lane.transcript.activePath()) {
    if (entry.type !== 'message' || entry.message.role !== 'toolResult') continue;
    const truncated = truncateToolResult(entry.message as ToolResultMessage, lane.group.contextWindow);
    if (truncated) replacements.push({ entryId: entry.id, message: truncated });
  }
  if (replacements.length === 0) return false;
  return lane.transcript.rewriteEntries({ replacements }).changed;
}

/** The error of a prompt that never fit: the precheck's, the provider's recorded error, or what the replay counted. */
function overflowError(lane: Lane, overflow: PromptOverflow): string {
  if (overflow.source === 'precheck') return PRECHECK_OVERFLOW_ERROR_MESSAGE;
  const check = overflow.check;
  if (check?.recordedError !== undefined) return check.recordedError;
  const counted = check ? describeProviderCount(check) : 'tiktoken';
  return `Context overflow: the prompt (${overflow.tokens} tokens, ${counted}) exceeds the ${lane.group.contextWindow}-token context window.`;
}

/** What the overflow was decided on: the precheck's estimate against its threshold, or the provider's check. */
function overflowCause(
  lane: Lane,
  draft: TurnDraft,
  attempt: AttemptResult,
  overflow: PromptOverflow,
): CompactionCause {
  if (overflow.source === 'precheck') {
    return {
      measure: 'precheck',
      attempt: draft.attemptNo,
      tokens: overflow.tokens,
      limit: attempt.precheck.promptBudgetBeforeReserve,
      source: attempt.precheck.pressureSource,
    };
  }
  const tokens = overflow.check ? overflow.check.providerTokens : overflow.tokens;
  return {
    measure: 'provider',
    attempt: overflow.check?.attempt ?? draft.attemptNo,
    ...(tokens !== undefined ? { tokens } : {}),
    limit: lane.group.contextWindow,
  };
}

/** Overflow recovery: `compact({force, compactionTarget: "budget"})` on the active engine; true when it compacted. */
function compactForOverflow(lane: Lane, draft: TurnDraft, attempt: AttemptResult, overflow: PromptOverflow) {
  return compactOnEngine(
    lane,
    draft,
    lane.overflowCompactor,
    'overflow',
    {
      tokenBudget: lane.group.contextWindow,
      currentTokenCount: overflow.tokens,
      force: true,
      compactionTarget: 'budget',
      ...(overflow.source === 'precheck'
        ? { forceReason: 'preflight_required' as const, preflightCompactionTrigger: 'tokens' as const }
        : {}),
    },
    attempt.runtimeSettings,
    overflowCause(lane, draft, attempt, overflow),
  );
}

/**
 * Attempts until the prompt fits (behaviour §7.3, §13 step 6): the truncate route rewrites oversized tool results once;
 * other overflows compact on the engine and retry, at most MAX_OVERFLOW_COMPACTION_ATTEMPTS times. A `promptError`
 * means the prompt is not sent.
 */
export async function attemptUntilPromptFits(
  lane: Lane,
  draft: TurnDraft,
  prompt: string,
  budget: AssembleBudget,
): Promise<{ attempt: AttemptResult; promptError?: string }> {
  let overflowCompactions = 0;
  let truncated = false;
  let measuring: CompactionOutcome | undefined;
  for (;;) {
    const attempt = await runAttempt(lane, draft, prompt, budget);
    if (measuring) measuring.measuredAfter = assembledEstimate(attempt);
    measuring = undefined;
    const overflow = attempt.overflow;
    if (!overflow) return { attempt };
    if (overflow.route === 'truncate_tool_results_only' && overflow.source === 'precheck' && !truncated) {
      truncated = true;
      if (truncateOversizedToolResults(lane)) {
        draft.attemptNo++;
        continue;
      }
    }
    const promptError = overflowError(lane, overflow);
    if (overflowCompactions >= MAX_OVERFLOW_COMPACTION_ATTEMPTS) return { attempt, promptError };
    overflowCompactions++;
    if (!(await compactForOverflow(lane, draft, attempt, overflow))) return { attempt, promptError };
    // compaction-no-effect is judged by the assembled context before this compaction and at the next assemble
    measuring = draft.compactions[draft.compactions.length - 1];
    if (measuring && overflow.source === 'provider') noteProviderRecovery(measuring);
    if (measuring) measuring.measuredBefore = assembledEstimate(attempt);
    draft.attemptNo++;
  }
}

/**
 * What OpenClaw does at each model call of a turn whose engine owns compaction (versionProfiles.ts
 * `ownerModelCallHook`): it wraps the agent's `transformContext`, so whenever messages were added since the last call
 * — the prompt before the first call, tool results before the next — the engine sees them and assembles again, and
 * the model gets what it assembled (selection-*.js `installContextEngineLoopHook` in 4.25 – 7.35; 9.6
 * builtin-openclaw-*.mjs, whose `deferredTurn` variant for an admitted logical turn skips afterTurn, hands assemble the
 * history before the prompt and puts the pending messages after its result). The engine can therefore compact inside
 * a turn, and what the first call carried can differ from the turn's assembled context + prompt.
 *
 * The replay has no model calls of its own: a turn's calls are the recorded ones, one before each recorded assistant
 * message, each carrying the assembled context and the turn's messages before that reply.
 */
import type { AgentMessage, AssembleResult } from '../../../contract';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import { ownRun } from '../laterRuns';
import type { AttemptResult } from './attempt';

export interface ModelCallHookOutcome {
  /**
   * the message count afterTurn last saw at a model call: OpenClaw's `contextEngineAfterTurnCheckpoint`, which the
   * afterTurn at the end of the turn gets as `prePromptMessageCount`
   */
  afterTurnCheckpoint?: number;
  /** what the turn's first model call carried, when the hook assembled it */
  firstCall?: AgentMessage[];
}

/** The messages each recorded model call of the turn carried before the hook: context + the run's messages so far. */
function modelCalls(assembled: readonly AgentMessage[], run: readonly AgentMessage[]): AgentMessage[][] {
  const calls: AgentMessage[][] = [];
  run.forEach((message, i) => {
    if (message.role === 'assistant') calls.push([...assembled, ...run.slice(0, i)]);
  });
  return calls;
}

/** afterTurn with everything so far, else the new messages through ingestBatch/ingest; false when a call failed. */
async function ingestAtCall(
  lane: Lane,
  draft: TurnDraft,
  attempt: AttemptResult,
  messages: AgentMessage[],
  prePromptMessageCount: number,
): Promise<boolean> {
  const { engine, group } = lane;
  const common = { ...lane.sessionParams, isHeartbeat: false };
  if (engine.has('afterTurn')) {
    const outcome = await engine.call(
      draft,
      'afterTurn',
      {
        ...common,
        sessionFile: lane.transcript.engineSessionFile,
        messages,
        prePromptMessageCount,
        tokenBudget: group.contextWindow,
        runtimeSettings: attempt.runtimeSettings,
        runtimeContext: lane.runtimeContext(),
      },
      'at the model call',
    );
    return outcome.ok;
  }
  const added = messages.slice(prePromptMessageCount);
  if (engine.has('ingestBatch')) {
    return (await engine.call(draft, 'ingestBatch', { ...common, messages: added }, 'at the model call')).ok;
  }
  let ok = true;
  for (const message of added) {
    ok = (await engine.call(draft, 'ingest', { ...common, message }, 'at the model call')).ok && ok;
  }
  return ok;
}

/**
 * Run the hook at each of the turn's model calls (the prompt was sent and the live engine owns compaction on a
 * release that has the hook). `run` is the turn's new messages, the prompt first.
 */
export async function runModelCallHooks(
  lane: Lane,
  draft: TurnDraft,
  attempt: AttemptResult,
  prompt: string,
  run: readonly AgentMessage[],
): Promise<ModelCallHookOutcome> {
  const variant = lane.state.profile.ownerModelCallHook;
  const outcome: ModelCallHookOutcome = {};
  if (variant === 'none') return outcome;
  const history = attempt.assembled.length;
  let lastSeen = history;
  const calls = modelCalls(attempt.assembled, ownRun({ newMessages: run, newMessageKeys: [] }).newMessages);
  for (const [index, messages] of calls.entries()) {
    // read live: a call that quarantined the engine leaves legacy, which owns nothing, for the next one
    if (lane.engine.info.ownsCompaction !== true || messages.length <= lastSeen) continue;
    let sent: AgentMessage[] | undefined;
    const before = lastSeen;
    if (variant === 'afterTurn-then-assemble') {
      if (await ingestAtCall(lane, draft, attempt, messages, before)) {
        outcome.afterTurnCheckpoint = messages.length;
        lastSeen = messages.length;
        const assembled = await lane.engine.call<AssembleResult>(
          draft,
          'assemble',
          {
            ...lane.sessionParams,
            messages,
            tokenBudget: lane.group.contextWindow,
            ...(lane.group.model ? { model: lane.group.model } : {}),
            runtimeSettings: attempt.runtimeSettings,
          },
          'at the model call',
        );
        if (assembled.ok && Array.isArray(assembled.value?.messages)) sent = assembled.value.messages;
        // 7.35's hook: a throw goes back to the count before this call; a result without messages does not
        else if (!assembled.ok) lastSeen = before;
      }
    } else {
      lastSeen = messages.length;
      const pending = messages.slice(history);
      const pendingTokens = lane.classify(pending).stored.reduce((s, m) => s + m.estTokens, 0);
      const assembled = await lane.engine.call<AssembleResult>(
        draft,
        'assemble',
        {
          ...lane.sessionParams,
          messages: messages.slice(0, history),
          prompt,
          availableTools: new Set(lane.session.toolNames),
          tokenBudget: Math.max(1, lane.group.contextWindow - pendingTokens),
          ...(lane.group.model ? { model: lane.group.model } : {}),
          runtimeSettings: attempt.runtimeSettings,
        },
        'at the model call',
      );
      if (assembled.ok && Array.isArray(assembled.value?.messages)) sent = [...assembled.value.messages, ...pending];
      // 9.6's hook throws on a result without messages too, and goes back to the count before this call
      else lastSeen = before;
    }
    if (index === 0 && sent) outcome.firstCall = sent;
  }
  return outcome;
}

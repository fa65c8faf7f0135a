/**
 * The hook points of one replayed turn, in the embedded runner's order (openclaw@2026.7.35 run.ts /
 * runEmbeddedAttempt, 2026.9.6 builtin-openclaw): before_agent_start once per run with `{prompt}` (2026.7 only;
 * its result is reused by every attempt); after each attempt's assemble, agent_turn_prepare and
 * before_prompt_build with `{prompt, messages: assembled}` (their result changes the prompt and system prompt
 * sent and the precheck); llm_input with what is sent; agent_end after finalize with the turn's messages.
 */
import type { AgentMessage, AssembleResult } from '../../../contract';
import { prependSystemPromptAddition } from '../../../runtime';
import { parseSessionKey } from '../../../transcripts';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import {
  describeText,
  handlerErrors,
  hookContext,
  invocationOf,
  recordHook,
  recordPromptEffect,
  recordVoidReply,
  runHookPoint,
  runnableHooks,
} from './laneHooks';
import {
  applyPromptHookEffect,
  isEmptyEffect,
  mergePromptBuildResults,
  resolvePromptHookEffect,
  type PromptBuildResult,
} from './promptHooks';
import type { PromptHookEffect } from '../../../contract/recording';
import type { RunHooksReply } from '../../../plugins';

const agentStartResults = new WeakMap<TurnDraft, PromptBuildResult | undefined>();

function contextOf(lane: Lane): Record<string, unknown> {
  const agentId = parseSessionKey(lane.sessionKey ?? '')?.agentId ?? 'main';
  return { ...hookContext({ sessionParams: lane.sessionParams, group: lane.group, agentId }), runId: runIdOf(lane) };
}

function runIdOf(lane: Lane): string {
  return `replay:${lane.id}:${lane.sessionParams.sessionId}`;
}

function describeEffect(result: PromptBuildResult | undefined): string {
  if (!result) return 'returned nothing';
  const parts = [
    describeText('systemPrompt', result.systemPrompt),
    describeText('prependSystemContext', result.prependSystemContext),
    describeText('appendSystemContext', result.appendSystemContext),
    describeText('prependContext', result.prependContext),
    describeText('appendContext', result.appendContext),
  ].filter((p): p is string => p !== undefined);
  return parts.length ? parts.join('; ') : 'returned nothing';
}

function recordModifying(
  draft: TurnDraft,
  reply: RunHooksReply[number],
  attempt?: number,
): PromptBuildResult | undefined {
  const merged = mergePromptBuildResults(reply.handlers.map((h) => h.result));
  const errors = handlerErrors(reply);
  recordHook(draft, {
    name: reply.hook,
    ...(attempt !== undefined ? { attempt } : {}),
    handlers: reply.handlers.length,
    changed: merged !== undefined && !isEmptyEffect(merged),
    summary: describeEffect(merged),
    ...(errors.length ? { errors } : {}),
  });
  return merged;
}

/** before_agent_start at the start of the run (2026.7): `{prompt}`; its prompt fields join every attempt's build. */
export async function runRunStartHooks(lane: Lane, draft: TurnDraft, prompt: string): Promise<void> {
  if (runnableHooks(lane, ['before_agent_start']).length === 0) return;
  const replies = await runHookPoint(lane, draft, [invocationOf('before_agent_start', { prompt }, contextOf(lane))]);
  const reply = replies?.[0];
  if (reply) agentStartResults.set(draft, recordModifying(draft, reply));
}

/**
 * agent_turn_prepare + before_prompt_build after the attempt's assemble (one round trip), merged with the run's
 * before_agent_start result. Returns the prompt and system prompt the attempt sends (the engine's
 * systemPromptAddition already prepended), or undefined when the lane runs no prompt hook.
 */
export async function runPromptBuildHooks(
  lane: Lane,
  draft: TurnDraft,
  prompt: string,
  assembled: readonly AgentMessage[],
  result: AssembleResult | undefined,
): Promise<{ systemPrompt: string; prompt: string; effect: PromptHookEffect } | undefined> {
  const hooks = runnableHooks(lane, ['agent_turn_prepare', 'before_prompt_build']);
  const agentStart = agentStartResults.get(draft);
  if (hooks.length === 0 && !agentStart) return undefined;
  const ctx = contextOf(lane);
  const events: Record<string, unknown> = {
    agent_turn_prepare: { prompt, messages: assembled, queuedInjections: [] },
    before_prompt_build: { prompt, messages: assembled },
  };
  const replies = await runHookPoint(
    lane,
    draft,
    hooks.map((h) => invocationOf(h, events[h], ctx)),
  );
  const byHook = new Map((replies ?? []).map((r) => [r.hook, r]));
  const part = (name: string) => {
    const reply = byHook.get(name);
    return reply ? recordModifying(draft, reply, draft.attemptNo) : undefined;
  };
  const turnPrepare = part('agent_turn_prepare');
  const promptBuild = part('before_prompt_build');
  const effect = resolvePromptHookEffect({
    ...(turnPrepare ? { turnPrepare } : {}),
    ...(promptBuild ? { promptBuild } : {}),
    ...(agentStart ? { agentStart } : {}),
  });
  recordPromptEffect(draft, effect);
  const base = prependSystemPromptAddition(lane.state.systemPrompt, result?.systemPromptAddition);
  return { ...applyPromptHookEffect(effect, base, prompt), effect };
}

/** llm_input with what the attempt sends (before the precheck, as OpenClaw runs it). */
export async function runLlmInputHooks(
  lane: Lane,
  draft: TurnDraft,
  sent: { systemPrompt: string; prompt: string; messages: readonly AgentMessage[] },
): Promise<void> {
  if (runnableHooks(lane, ['llm_input']).length === 0) return;
  const event = {
    runId: runIdOf(lane),
    sessionId: lane.sessionParams.sessionId,
    provider: lane.group.provider ?? undefined,
    model: lane.group.model ?? undefined,
    systemPrompt: sent.systemPrompt,
    prompt: sent.prompt,
    historyMessages: sent.messages,
    imagesCount: 0,
    tools: [...lane.session.toolNames].map((name) => ({ name })),
  };
  const replies = await runHookPoint(lane, draft, [invocationOf('llm_input', event, contextOf(lane))]);
  const reply = replies?.[0];
  if (reply)
    recordVoidReply(draft, reply, `given ${sent.messages.length} messages, prompt ${sent.prompt.length} chars`);
}

/** agent_end after finalize: `{messages, success, error?, durationMs}` (the replay's duration is 0). */
export async function runAgentEndHooks(
  lane: Lane,
  draft: TurnDraft,
  outcome: { messages: readonly AgentMessage[]; success: boolean; error?: string },
): Promise<void> {
  if (runnableHooks(lane, ['agent_end']).length === 0) return;
  const event = {
    messages: outcome.messages,
    success: outcome.success,
    ...(outcome.error !== undefined ? { error: outcome.error } : {}),
    durationMs: 0,
    runId: runIdOf(lane),
  };
  const replies = await runHookPoint(lane, draft, [invocationOf('agent_end', event, contextOf(lane))]);
  const reply = replies?.[0];
  if (reply)
    recordVoidReply(draft, reply, `given ${outcome.messages.length} messages, success ${String(outcome.success)}`);
}

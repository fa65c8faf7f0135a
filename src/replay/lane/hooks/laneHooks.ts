/**
 * A plugin lane's hooks: the handlers its plugin registered with `api.on`, run inside the plugin's engine host at
 * the points of a turn where OpenClaw runs them (one round trip per hook point), with OpenClaw's payloads. What
 * each point returned is kept per turn draft and lands in the TurnRecord's `hooks` (and `promptHooks`).
 */
import type { HookRun, PromptHookEffect, TurnRecord } from '../../../contract/recording';
import type { OpenClawConfig } from '../../../contract';
import type { HookInvocation, RunHooksReply } from '../../../plugins';
import type { TurnDraft } from '../../recording/turnDraft';
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  planLaneHooks,
  SIMULATED_HOOKS,
  type HookPlan,
  type SimulatedHook,
} from './hookCatalog';

export interface LaneHookHost {
  pluginId: string;
  /** event names the plugin registered (once each) */
  registered: readonly string[];
  /** runs hook points in the engine host, in order */
  run(invocations: readonly HookInvocation[]): Promise<RunHooksReply>;
}

/** What a hook point needs from the lane: the plan's inputs and where the records go. */
export interface HookLane {
  readonly group: { hooks?: LaneHookHost; config: OpenClawConfig };
  readonly state: { profile: { version: string } };
}

const plans = new WeakMap<LaneHookHost, Map<string, HookPlan>>();
const turnHooks = new WeakMap<TurnDraft, HookRun[]>();
const turnPromptEffects = new WeakMap<TurnDraft, PromptHookEffect>();

/** The lane's hook plan (which hooks run, which do not and why) for its OpenClaw version. */
export function laneHookPlan(lane: HookLane): HookPlan | undefined {
  const host = lane.group.hooks;
  if (!host) return undefined;
  const byVersion = plans.get(host) ?? new Map<string, HookPlan>();
  plans.set(host, byVersion);
  const version = lane.state.profile.version;
  let plan = byVersion.get(version);
  if (!plan) {
    plan = planLaneHooks({
      registered: host.registered,
      pluginId: host.pluginId,
      openclawVersion: version,
      config: lane.group.config,
    });
    byVersion.set(version, plan);
  }
  return plan;
}

/** The hooks of `names` this lane runs, in the given order. */
export function runnableHooks(lane: HookLane, names: readonly SimulatedHook[]): SimulatedHook[] {
  const plan = laneHookPlan(lane);
  return plan ? names.filter((n) => plan.run.has(n)) : [];
}

export function invocationOf(hook: SimulatedHook, event: unknown, ctx: unknown): HookInvocation {
  const timeoutMs = DEFAULT_HOOK_TIMEOUT_MS[hook];
  return { hook, mode: SIMULATED_HOOKS[hook], event, ctx, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
}

/**
 * One round trip for `invocations`; undefined when the engine host could not run them (the failure becomes the
 * turn's warning and a record per hook, as OpenClaw logs a failed hook and goes on).
 */
export async function runHookPoint(
  lane: HookLane,
  draft: TurnDraft,
  invocations: readonly HookInvocation[],
): Promise<RunHooksReply | undefined> {
  const host = lane.group.hooks;
  if (!host || invocations.length === 0) return undefined;
  try {
    return await host.run(invocations);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    for (const invocation of invocations) {
      draft.warn(`${invocation.hook} hook failed: ${reason}`);
      recordHook(draft, { name: invocation.hook, handlers: 0, changed: false, summary: 'not run', errors: [reason] });
    }
    return undefined;
  }
}

export function handlerErrors(reply: RunHooksReply[number]): string[] {
  return reply.handlers.flatMap((h) => (h.error ? [`${h.pluginId}: ${h.error}`] : []));
}

export function recordHook(draft: TurnDraft, run: HookRun): void {
  const list = turnHooks.get(draft) ?? [];
  list.push(run);
  turnHooks.set(draft, list);
  for (const error of run.errors ?? []) draft.warn(`[hooks] ${run.name} handler from ${error}`);
}

export function recordPromptEffect(draft: TurnDraft, effect: PromptHookEffect): void {
  turnPromptEffects.set(draft, effect);
}

/** A void hook point's record: handlers run and their failures (OpenClaw ignores what they return). */
export function recordVoidReply(draft: TurnDraft, reply: RunHooksReply[number], summary: string): void {
  const errors = handlerErrors(reply);
  recordHook(draft, {
    name: reply.hook,
    handlers: reply.handlers.length,
    changed: false,
    summary,
    ...(errors.length ? { errors } : {}),
  });
}

/** The turn's hook records on its TurnRecord (`hooks`, `promptHooks`); nothing when no hook ran. */
export function attachHookRecords(record: TurnRecord, draft: TurnDraft): TurnRecord {
  const hooks = turnHooks.get(draft);
  const effect = turnPromptEffects.get(draft);
  if (hooks && hooks.length > 0) record.hooks = hooks;
  if (effect && Object.keys(effect).length > 0) record.promptHooks = effect;
  return record;
}

/** The hook context OpenClaw passes the run's hooks (the fields a replay knows). */
export function hookContext(lane: {
  sessionParams: { sessionId: string; sessionKey?: string };
  group: { workspaceDir: string; model: string | null; provider: string | null };
  agentId: string;
}): Record<string, unknown> {
  const { sessionId, sessionKey } = lane.sessionParams;
  return {
    agentId: lane.agentId,
    sessionKey: sessionKey ?? sessionId,
    sessionId,
    workspaceDir: lane.group.workspaceDir,
    ...(lane.group.provider ? { modelProviderId: lane.group.provider } : {}),
    ...(lane.group.model ? { modelId: lane.group.model } : {}),
    trigger: 'user',
  };
}

/** A short description of text a hook added, for the record's summary. */
export function describeText(label: string, text: string | undefined): string | undefined {
  if (!text) return undefined;
  const firstLine = text.split('\n').find((l) => l.trim()) ?? '';
  const preview = firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine;
  return `${label} ${text.length} chars ("${preview}")`;
}

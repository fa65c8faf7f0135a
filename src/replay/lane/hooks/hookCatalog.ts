/**
 * Which plugin hooks a replay runs, and why the others cannot be simulated (pure). Checked against OpenClaw's
 * hook runner and its call sites: openclaw@2026.7.35 (`hook-runner-global`, `registry` registerTypedHook,
 * `attempt.prompt-helpers` resolvePromptBuildHookResult, `selection` runEmbeddedAttempt, `compact`,
 * `run-session-target` compaction hooks) and openclaw@2026.9.6 (`hooks`, `loader-runtime-load`,
 * `context-engine-maintenance`, `builtin-openclaw`).
 *
 * Registration policy (which hooks OpenClaw drops for lack of allowConversationAccess / allowPromptInjection, and
 * by release): `src/plugins/hookPolicy.ts`, shared with the doctor's `hook-blocked`.
 */
import type { OpenClawConfig } from '../../../contract';
import { hookBlockedReason, isHookEra2026_8 } from '../../../plugins';

export { isHookEra2026_8 };

/** The hooks a replay runs, with how the engine host dispatches them. */
export const SIMULATED_HOOKS = {
  before_agent_start: 'sequential',
  agent_turn_prepare: 'sequential',
  before_prompt_build: 'sequential',
  llm_input: 'parallel',
  before_compaction: 'parallel',
  after_compaction: 'parallel',
  agent_end: 'parallel',
  tool_result_persist: 'message',
} as const;
export type SimulatedHook = keyof typeof SIMULATED_HOOKS;

/** Per-handler timeouts OpenClaw applies by default (hooks.ts DEFAULT_*_HOOK_TIMEOUT_MS_BY_HOOK). */
export const DEFAULT_HOOK_TIMEOUT_MS: Partial<Record<SimulatedHook, number>> = {
  before_prompt_build: 15_000,
  before_compaction: 30_000,
  after_compaction: 30_000,
  agent_end: 30_000,
};

const NO_MODEL = 'the replay calls no model: the recorded assistant message is what the model answered';
const NO_CHANNEL = 'needs a live gateway channel (inbound/outbound chat messages); a replay has none';
const NO_TOOLS = 'tools are not executed in a replay: the recorded tool calls and results are used as they are';
const GATEWAY = 'belongs to the gateway process and its services, which a replay does not start';

/** Why a known OpenClaw hook cannot be simulated in a replay. */
const NOT_SIMULATED: Record<string, string> = {
  before_model_resolve: `picks the provider/model before the run; ${NO_MODEL}, so an override cannot change it`,
  before_agent_reply: `can answer instead of the model; ${NO_MODEL}`,
  before_agent_finalize: `can make a live run revise its answer; ${NO_MODEL}`,
  before_agent_run: 'gates a live run before it starts (fail-closed policy); the recorded run happened',
  model_call_started: NO_MODEL,
  model_call_ended: NO_MODEL,
  llm_output: NO_MODEL,
  before_tool_call: NO_TOOLS,
  after_tool_call: NO_TOOLS,
  before_message_write:
    'filters transcript writes as they happen; the recorded transcript already is what OpenClaw wrote',
  heartbeat_prompt_contribution: 'runs only for heartbeat-triggered runs; replayed turns run as user turns',
  inbound_claim: NO_CHANNEL,
  channel_pairing_requested: NO_CHANNEL,
  message_received: NO_CHANNEL,
  message_sending: NO_CHANNEL,
  reply_payload_sending: NO_CHANNEL,
  message_sent: NO_CHANNEL,
  before_dispatch: NO_CHANNEL,
  reply_dispatch: NO_CHANNEL,
  before_reset: 'runs on /new and /reset in a live session; a replay replays one recorded session',
  session_start: 'runs when the gateway opens a session; a replay replays one recorded session',
  session_end: 'runs when the gateway closes a session; a replay replays one recorded session',
  subagent_delivery_target: 'routes subagent replies to a live channel; a replay has none',
  subagent_spawned: 'fires from the gateway spawn path; replayed spawns call the engine hooks only',
  subagent_progress: 'reports live subagent progress; a replay has none',
  subagent_ended: 'fires from the gateway when a subagent run ends; replayed children end through the engine',
  gateway_start: GATEWAY,
  gateway_stop: GATEWAY,
  deactivate: GATEWAY,
  cron_reconciled: GATEWAY,
  cron_changed: GATEWAY,
  skill_proposal_evaluate: GATEWAY,
  skill_proposal_changed: GATEWAY,
  skill_changed: GATEWAY,
  before_install: 'runs when a plugin or skill is installed, not during a run',
  resolve_exec_env: NO_TOOLS,
};

export interface HookNotRun {
  name: string;
  why: string;
}

export interface HookPlan {
  /** hooks the lane runs (registered, allowed, simulated) */
  run: Set<SimulatedHook>;
  /** registered hooks the lane does not run, each with why (blocked as OpenClaw blocks it, or not simulatable) */
  notRun: HookNotRun[];
}

/** What a lane does with the hooks its plugin registered (`registered`: event names, once each). */
export function planLaneHooks(input: {
  registered: readonly string[];
  pluginId: string;
  openclawVersion: string;
  config: OpenClawConfig;
}): HookPlan {
  const era8 = isHookEra2026_8(input.openclawVersion);
  const plan: HookPlan = { run: new Set(), notRun: [] };
  for (const name of [...new Set(input.registered)].sort()) {
    const blocked = hookBlockedReason(name, input.pluginId, era8, input.config);
    if (blocked) plan.notRun.push({ name, why: blocked });
    else if (Object.prototype.hasOwnProperty.call(SIMULATED_HOOKS, name)) plan.run.add(name as SimulatedHook);
    else
      plan.notRun.push({
        name,
        why: NOT_SIMULATED[name] ?? `not an OpenClaw hook: OpenClaw ignores it ("unknown typed hook")`,
      });
  }
  return plan;
}

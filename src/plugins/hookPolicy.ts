/**
 * OpenClaw's registration policy for plugin hooks (pure), from openclaw@2026.7.35 `registry` registerTypedHook and
 * 2026.9.6 `loader-runtime-load`: a prompt-injection hook is dropped when
 * `plugins.entries.<id>.hooks.allowPromptInjection` is false; a conversation hook of a non-bundled plugin is
 * dropped unless `plugins.entries.<id>.hooks.allowConversationAccess` is true (ContextScope loads no OpenClaw
 * bundled plugin, so every plugin is non-bundled). 2026.8+ counts `before_prompt_build` and `agent_turn_prepare`
 * as conversation hooks too and no longer knows `before_agent_start` ("unknown typed hook … ignored").
 */
import type { OpenClawConfig } from '../contract';

const PROMPT_INJECTION = new Set([
  'agent_turn_prepare',
  'before_prompt_build',
  'before_agent_start',
  'heartbeat_prompt_contribution',
]);
const CONVERSATION_2026_7 = new Set([
  'before_model_resolve',
  'before_agent_reply',
  'llm_input',
  'llm_output',
  'before_agent_finalize',
  'agent_end',
  'before_agent_run',
]);
const CONVERSATION_2026_8 = new Set([...CONVERSATION_2026_7, 'agent_turn_prepare', 'before_prompt_build']);

/** True for releases from 2026.8 on (the release line the hook policy changed in, as far as 7.35 → 9.6 shows). */
export function isHookEra2026_8(version: string): boolean {
  const m = /^(\d{4})\.(\d{1,2})\./.exec(version.trim());
  if (!m) return false;
  const [year, month] = [Number(m[1]), Number(m[2])];
  return year > 2026 || month >= 8;
}

function hookPolicy(config: OpenClawConfig, pluginId: string): { conversation?: boolean; promptInjection?: boolean } {
  const entries = (config.plugins?.entries ?? {}) as Record<string, { hooks?: Record<string, unknown> } | undefined>;
  const hooks = entries[pluginId]?.hooks ?? {};
  return {
    ...(typeof hooks.allowConversationAccess === 'boolean' ? { conversation: hooks.allowConversationAccess } : {}),
    ...(typeof hooks.allowPromptInjection === 'boolean' ? { promptInjection: hooks.allowPromptInjection } : {}),
  };
}

/** Why OpenClaw drops the plugin's registration of hook `name` (undefined: it keeps it), as `era8` releases do. */
export function hookBlockedReason(
  name: string,
  pluginId: string,
  era8: boolean,
  config: OpenClawConfig,
): string | undefined {
  if (era8 && name === 'before_agent_start') {
    return `OpenClaw 2026.8+ has no before_agent_start hook: it ignores the registration ("unknown typed hook"); use before_prompt_build`;
  }
  const policy = hookPolicy(config, pluginId);
  if (policy.promptInjection === false && PROMPT_INJECTION.has(name)) {
    return `blocked by plugins.entries.${pluginId}.hooks.allowPromptInjection=false, as OpenClaw blocks it`;
  }
  const conversation = era8 ? CONVERSATION_2026_8 : CONVERSATION_2026_7;
  if (conversation.has(name) && policy.conversation !== true) {
    return `blocked, as OpenClaw blocks it: non-bundled plugins must set plugins.entries.${pluginId}.hooks.allowConversationAccess=true`;
  }
  return undefined;
}

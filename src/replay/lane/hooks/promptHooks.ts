/**
 * What the prompt-build hooks do to the prompt OpenClaw sends (pure), as openclaw@2026.7.35 / 2026.9.6 do it:
 * - each hook's handler results are merged in priority order (`mergeBeforePromptBuild`): the first
 *   `systemPrompt` wins, the context strings are concatenated with a blank line;
 * - `resolvePromptBuildHookResult` joins agent_turn_prepare, before_prompt_build and (2026.7 only)
 *   before_agent_start: `prependContext`/`appendContext` in that order, the system context fenced as
 *   "OpenClaw plugin-injected system context" sections;
 * - the attempt then puts `prependContext\n\n` before the prompt and `\n\nappendContext` after it, replaces the
 *   system prompt with a hook's `systemPrompt`, and joins prependSystemContext, the system prompt (which already
 *   carries the engine's systemPromptAddition) and appendSystemContext, trimmed, with blank lines.
 */
import type { PromptHookEffect } from '../../../contract/recording';

export interface PromptBuildResult {
  systemPrompt?: string;
  prependContext?: string;
  appendContext?: string;
  prependSystemContext?: string;
  appendSystemContext?: string;
}

const HOOK_SYSTEM_CONTEXT_HEADER = 'OpenClaw plugin-injected system context. This block is not workspace file content.';
const TEXT_KEYS = ['prependContext', 'appendContext', 'prependSystemContext', 'appendSystemContext'] as const;

function concatOptional(left: string | undefined, right: string | undefined): string | undefined {
  if (left && right) return `${left}\n\n${right}`;
  return right ?? left;
}

function joinPresent(segments: readonly unknown[], trim = false): string | undefined {
  const values: string[] = [];
  for (const segment of segments) {
    if (typeof segment !== 'string') continue;
    const normalized = trim ? segment.trim() : segment;
    if (normalized) values.push(normalized);
  }
  return values.length > 0 ? values.join('\n\n') : undefined;
}

/** OpenClaw's normalizeStructuredPromptSection (without the lone-surrogate repair). */
export function normalizePromptSection(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+$/gm, '')
    .trim();
}

function wrapSystemContext(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const normalized = normalizePromptSection(value);
  if (!normalized) return undefined;
  return `---\n\n${HOOK_SYSTEM_CONTEXT_HEADER}\n\n${normalized}\n\n---`;
}

function stringField(value: unknown, key: string): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

/** The handler results of one modifying hook, merged as `mergeBeforePromptBuild` does (nullish results skipped). */
export function mergePromptBuildResults(results: readonly unknown[]): PromptBuildResult | undefined {
  let acc: PromptBuildResult | undefined;
  for (const next of results) {
    if (next === undefined || next === null) continue;
    const merged: PromptBuildResult = {};
    const systemPrompt = acc?.systemPrompt ?? stringField(next, 'systemPrompt');
    if (systemPrompt !== undefined) merged.systemPrompt = systemPrompt;
    for (const key of TEXT_KEYS) {
      const value = concatOptional(acc?.[key], stringField(next, key));
      if (value !== undefined) merged[key] = value;
    }
    acc = merged;
  }
  return acc;
}

/** resolvePromptBuildHookResult: the three hooks' merged results joined into what the attempt applies. */
export function resolvePromptHookEffect(parts: {
  turnPrepare?: PromptBuildResult;
  promptBuild?: PromptBuildResult;
  agentStart?: PromptBuildResult;
}): PromptHookEffect {
  const { turnPrepare, promptBuild, agentStart } = parts;
  const effect: PromptHookEffect = {};
  const systemPrompt = promptBuild?.systemPrompt ?? agentStart?.systemPrompt;
  if (systemPrompt !== undefined) effect.systemPrompt = systemPrompt;
  const fields: Record<(typeof TEXT_KEYS)[number], string | undefined> = {
    prependContext: joinPresent([turnPrepare?.prependContext, promptBuild?.prependContext, agentStart?.prependContext]),
    appendContext: joinPresent([turnPrepare?.appendContext, promptBuild?.appendContext, agentStart?.appendContext]),
    prependSystemContext: joinPresent([
      wrapSystemContext(promptBuild?.prependSystemContext),
      wrapSystemContext(agentStart?.prependSystemContext),
    ]),
    appendSystemContext: joinPresent([
      wrapSystemContext(promptBuild?.appendSystemContext),
      wrapSystemContext(agentStart?.appendSystemContext),
    ]),
  };
  for (const key of TEXT_KEYS) if (fields[key] !== undefined) effect[key] = fields[key];
  return effect;
}

/** The prompt and system prompt the attempt sends once the hooks' effect is applied. */
export function applyPromptHookEffect(
  effect: PromptHookEffect,
  systemPrompt: string,
  prompt: string,
): { systemPrompt: string; prompt: string } {
  let sentPrompt = prompt;
  if (effect.prependContext) sentPrompt = `${effect.prependContext}\n\n${sentPrompt}`;
  if (effect.appendContext) sentPrompt = `${sentPrompt}\n\n${effect.appendContext}`;
  let system = systemPrompt;
  const replacement = effect.systemPrompt?.trim();
  if (replacement) system = replacement;
  const prepend = effect.prependSystemContext ? normalizePromptSection(effect.prependSystemContext) : '';
  const append = effect.appendSystemContext ? normalizePromptSection(effect.appendSystemContext) : '';
  if (prepend || append) system = joinPresent([prepend, system, append], true) ?? system;
  return { systemPrompt: system, prompt: sentPrompt };
}

/** True when the effect changes nothing. */
export function isEmptyEffect(effect: PromptHookEffect): boolean {
  return Object.values(effect).every((v) => !v);
}

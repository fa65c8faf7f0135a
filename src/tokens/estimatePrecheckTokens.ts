/**
 * OpenClaw's pre-prompt precheck estimator (`estimateLlmBoundaryTokenPressure` in the embedded runner's
 * `run/preemptive-compaction.ts`; behaviour §11.1 and §7.3).
 *
 * Rounding (the spec leaves it open; this follows the OpenClaw source): every term is rounded up on its own —
 * `ceil(weightedChars / charsPerToken)` per text/thinking block, per tool name, per JSON payload — then the
 * per-message integers are summed with the system-prompt and prompt terms, and the 1.2 safety margin is applied
 * once to the total: `ceil(total × 1.2)`. Because per-message values are integers before the margin, a replay
 * can cache `estimatePrecheckMessageTokens(message)` per message and finish with `applyPrecheckSafetyMargin`.
 *
 * Faithful oddities kept on purpose: a string `content` costs no 6-token block overhead; roles without a
 * `content` field (bashExecution, branchSummary, compactionSummary) cost only the 12-token boundary.
 */
import type { AgentMessage } from '../contract';
import { estimateStringChars, type CjkCounting } from './estimateStringChars';
import { isRecord } from '../common/guards';

/** OpenClaw's `SAFETY_MARGIN`. */
export const PRECHECK_SAFETY_MARGIN = 1.2;
export const MESSAGE_BOUNDARY_OVERHEAD_TOKENS = 12;
export const CONTENT_BLOCK_OVERHEAD_TOKENS = 6;
export const PRECHECK_IMAGE_BLOCK_TOKENS = 2000;
const TEXT_CHARS_PER_TOKEN = 4;
const TOOL_RESULT_CHARS_PER_TOKEN = 2;
const JSON_PAYLOAD_CHARS_PER_TOKEN = 3;
/** What OpenClaw charges for a payload JSON.stringify throws on. */
const UNSERIALIZABLE_PAYLOAD_TOKENS = 256;

type UnknownRecord = Record<string, unknown>;

function stringTokens(text: string, counting: CjkCounting, charsPerToken = TEXT_CHARS_PER_TOKEN): number {
  return Math.ceil(estimateStringChars(text, counting) / charsPerToken);
}

/** What a piece of text costs where it stands: in a message, in a tool result, in a tool call's JSON. */
type TextCost = (text: string) => number;

/**
 * A tool result's text: chars/2 of the CJK-weighted count until 2026.6 (6.11 attempt.tool-run-context-*.js); from
 * 2026.7 the larger of length/2 and the CJK-aware chars/4 (7.35 `estimateToolResultStringTokenPressure`), so CJK
 * output is no longer charged twice.
 */
function toolResultTextTokens(text: string, counting: CjkCounting): number {
  if (counting === 'basic') return stringTokens(text, counting, TOOL_RESULT_CHARS_PER_TOKEN);
  return Math.max(Math.ceil(text.length / TOOL_RESULT_CHARS_PER_TOKEN), stringTokens(text, counting));
}

/** A value as its JSON text costs; 1 when it has none, 256 when JSON.stringify throws. */
function serializedTokens(value: unknown, cost: TextCost): number {
  try {
    const serialized = JSON.stringify(value);
    return typeof serialized === 'string' ? cost(serialized) : 1;
  } catch {
    return UNSERIALIZABLE_PAYLOAD_TOKENS;
  }
}

function identifierTokens(value: unknown, payloadCost: TextCost): number {
  if (value == null) return 0;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return payloadCost(String(value));
  return serializedTokens(value, payloadCost);
}

function blockTokens(block: unknown, cost: TextCost): number {
  if (typeof block === 'string') return cost(block);
  if (!isRecord(block)) return serializedTokens(block, cost);
  if (block.type === 'text' && typeof block.text === 'string') return CONTENT_BLOCK_OVERHEAD_TOKENS + cost(block.text);
  if (block.type === 'thinking' && typeof block.thinking === 'string')
    return CONTENT_BLOCK_OVERHEAD_TOKENS + cost(block.thinking);
  if (block.type === 'image') return PRECHECK_IMAGE_BLOCK_TOKENS;
  return CONTENT_BLOCK_OVERHEAD_TOKENS + serializedTokens(block, cost);
}

function contentTokens(content: unknown, cost: TextCost): number {
  if (typeof content === 'string') return cost(content);
  if (Array.isArray(content)) return content.reduce<number>((sum, block) => sum + blockTokens(block, cost), 0);
  if (content !== undefined) return serializedTokens(content, cost);
  return 0;
}

function toolCallTokens(block: UnknownRecord, payloadCost: TextCost): number {
  const args = block.arguments ?? block.input ?? block.args ?? {};
  return (
    CONTENT_BLOCK_OVERHEAD_TOKENS + identifierTokens(block.name, payloadCost) + serializedTokens(args, payloadCost)
  );
}

/**
 * One message's precheck cost before the safety margin: the 12-token boundary plus its content
 * (tool results at chars/2 plus the tool name at chars/3; assistant tool calls at 6 + name/3 + JSON(args)/3), with
 * the release's CJK counting (src/tokens/estimateStringChars.ts).
 */
export function estimatePrecheckMessageTokens(message: AgentMessage, counting: CjkCounting = 'tiered'): number {
  const text: TextCost = (value) => stringTokens(value, counting);
  const payload: TextCost = (value) => stringTokens(value, counting, JSON_PAYLOAD_CHARS_PER_TOKEN);
  const record = message as unknown as UnknownRecord;
  let tokens = MESSAGE_BOUNDARY_OVERHEAD_TOKENS;
  if (record.role === 'toolResult' || record.role === 'tool' || record.type === 'toolResult') {
    tokens += contentTokens(record.content, (value) => toolResultTextTokens(value, counting));
    tokens += identifierTokens(record.toolName ?? record.tool_name, payload);
    return tokens;
  }
  if (record.role === 'assistant') {
    const content = record.content;
    if (Array.isArray(content)) {
      for (const block of content) {
        tokens +=
          isRecord(block) && (block.type === 'toolCall' || block.type === 'tool_use')
            ? toolCallTokens(block, payload)
            : blockTokens(block, text);
      }
    } else {
      tokens += contentTokens(content, text);
    }
    const extraCalls = record.toolCalls ?? record.tool_calls;
    if (Array.isArray(extraCalls)) {
      for (const call of extraCalls)
        tokens += isRecord(call) ? toolCallTokens(call, payload) : serializedTokens(call, payload);
    }
    return tokens;
  }
  return tokens + contentTokens(record.content, text);
}

/** System prompt (12 + chars/4 when it has non-blank text) plus prompt (always 12 + chars/4), before the margin. */
export function estimatePromptFrameTokens(
  params: { systemPrompt?: string; prompt: string },
  counting: CjkCounting = 'tiered',
): number {
  const system =
    typeof params.systemPrompt === 'string' && params.systemPrompt.trim().length > 0
      ? MESSAGE_BOUNDARY_OVERHEAD_TOKENS + stringTokens(params.systemPrompt, counting)
      : 0;
  return system + MESSAGE_BOUNDARY_OVERHEAD_TOKENS + stringTokens(params.prompt ?? '', counting);
}

/** `max(0, ceil(total × 1.2))` — computed with the same float expression as OpenClaw so results match exactly. */
export function applyPrecheckSafetyMargin(totalBeforeMargin: number): number {
  return Math.max(0, Math.ceil(totalBeforeMargin * PRECHECK_SAFETY_MARGIN));
}

/** The precheck estimate of `(messages + system prompt + prompt)` at the LLM boundary. */
export function estimatePrecheckTokens(
  params: { messages: readonly AgentMessage[]; systemPrompt?: string; prompt: string },
  counting: CjkCounting = 'tiered',
): number {
  let history = 0;
  for (const message of params.messages) history += estimatePrecheckMessageTokens(message, counting);
  return applyPrecheckSafetyMargin(history + estimatePromptFrameTokens(params, counting));
}

/** The same estimate from cached per-message values (the sum of `estimatePrecheckMessageTokens`). */
export function estimatePrecheckTokensFromMessageSum(
  params: { messageTokensSum: number; systemPrompt?: string; prompt: string },
  counting: CjkCounting = 'tiered',
): number {
  return applyPrecheckSafetyMargin(params.messageTokensSum + estimatePromptFrameTokens(params, counting));
}

/** OpenClaw's rendered estimate of the system prompt + prompt alone: `ceil(frame × 1.2)`. */
export function estimateRenderedPromptTokens(
  params: { systemPrompt?: string; prompt: string },
  counting: CjkCounting = 'tiered',
): number {
  return applyPrecheckSafetyMargin(estimatePromptFrameTokens(params, counting));
}

/**
 * Renders a summary request the way OpenClaw's harness does (`buildSummarizationPromptText`):
 * `<conversation>…</conversation>`, then `<previous-summary>…</previous-summary>` when updating, then the prompt
 * for the kind, then `\n\nAdditional focus: <instructions>` where the instructions are the identifier-policy text
 * composed with the caller's custom instructions.
 */
import type { AgentMessage } from '../contract';
import {
  composeSummaryInstructions,
  SUMMARIZATION_PROMPT,
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
  type IdentifierPolicy,
} from './prompts';
import { serializeConversation } from './serializeConversation';
import type { SummaryKind, SummaryRequest } from './types';

export interface BuildSummaryRequestInput {
  messages: AgentMessage[];
  /** `turn-prefix` for a split-turn prefix; otherwise `update` when `previousSummary` is set, else `history` */
  turnPrefix?: boolean;
  previousSummary?: string;
  customInstructions?: string;
  identifierPolicy?: IdentifierPolicy;
  identifierInstructions?: string;
  maxTokens: number;
  signal?: AbortSignal;
}

export function promptForKind(kind: SummaryKind): string {
  if (kind === 'turn-prefix') return TURN_PREFIX_SUMMARIZATION_PROMPT;
  return kind === 'update' ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT;
}

export function renderSummaryPromptText(params: {
  messages: readonly AgentMessage[];
  prompt: string;
  previousSummary?: string;
  instructions?: string;
}): string {
  let text = `<conversation>\n${serializeConversation(params.messages)}\n</conversation>\n\n`;
  if (params.previousSummary) text += `<previous-summary>\n${params.previousSummary}\n</previous-summary>\n\n`;
  text += params.prompt;
  if (params.instructions) text += `\n\nAdditional focus: ${params.instructions}`;
  return text;
}

export function buildSummaryRequest(input: BuildSummaryRequestInput): SummaryRequest {
  const kind: SummaryKind = input.turnPrefix ? 'turn-prefix' : input.previousSummary ? 'update' : 'history';
  const previousSummary = kind === 'update' ? input.previousSummary : undefined;
  const instructions = composeSummaryInstructions(input);
  let prompt: string | undefined;
  return {
    kind,
    messages: input.messages,
    ...(previousSummary !== undefined ? { previousSummary } : {}),
    ...(input.customInstructions ? { customInstructions: input.customInstructions } : {}),
    maxTokens: input.maxTokens,
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    // rendered on first read: the deterministic summarizer works from the messages and never sends it
    get prompt() {
      return (prompt ??= renderSummaryPromptText({
        messages: input.messages,
        prompt: promptForKind(kind),
        previousSummary,
        instructions,
      }));
    },
    ...(input.signal ? { signal: input.signal } : {}),
  };
}

/**
 * Output tokens for a summary: `min(floor(ratio × reserveTokens), modelMaxTokens)`; ratio 0.8, or 0.5 for a
 * turn prefix (harness `resolveSummaryOutputTokens`). A non-positive model max means "no cap".
 */
export function resolveSummaryOutputTokens(params: {
  reserveTokens: number;
  modelMaxTokens?: number;
  turnPrefix?: boolean;
}): number {
  const ratio = params.turnPrefix ? 0.5 : 0.8;
  const cap = params.modelMaxTokens && params.modelMaxTokens > 0 ? params.modelMaxTokens : Number.POSITIVE_INFINITY;
  return Math.min(Math.floor(ratio * params.reserveTokens), cap);
}

/**
 * The default, offline summarizer: an extractive summary in OpenClaw's required layout, built only from the
 * messages (and the previous summary when updating). Same input → same output. Identifiers are copied verbatim.
 */
import type { AgentMessage, LlmCompleteParams, LlmCompleteResult } from '../contract';
import { estimateTextTokens } from '../tokens';
import { clip, readConversation } from './extractConversationFacts';
import { fitSectionsToBudget } from './fitSummaryToBudget';
import { readPromptMaterial } from './readPromptMaterial';
import {
  HISTORY_SECTION_KEYS,
  mergeHistorySections,
  mergeItemsUpTo,
  parseSummarySections,
  renderHistorySections,
  renderTurnPrefixSections,
  type HistorySectionKey,
  type HistorySections,
  type TurnPrefixSections,
} from './summarySections';
import type { Summarizer, SummaryOutput, SummaryRequest } from './types';

export const DETERMINISTIC_PROVIDER = 'contextscope';
export const DETERMINISTIC_MODEL = 'deterministic-extractive-v1';

/** Items kept per section before the token budget is applied (Done keeps the most recent). */
const SECTION_CAPS: Record<HistorySectionKey, number> = {
  goal: 4,
  constraints: 8,
  done: 15,
  inProgress: 8,
  blocked: 8,
  decisions: 8,
  nextSteps: 5,
  critical: 40,
};
/** Least important first: dropped first when the budget is tight. */
const HISTORY_DROP_ORDER: readonly HistorySectionKey[] = [
  'done',
  'decisions',
  'constraints',
  'critical',
  'blocked',
  'inProgress',
  'nextSteps',
  'goal',
];
const DEFAULT_COMPLETE_MAX_TOKENS = 1024;

function capSections(sections: HistorySections): HistorySections {
  const out = { ...sections };
  for (const key of HISTORY_SECTION_KEYS) {
    const items = sections[key];
    const cap = SECTION_CAPS[key];
    // Done and Critical Context keep their newest items; the others their first ones
    out[key] = items.length <= cap ? items : key === 'done' ? items.slice(-cap) : items.slice(0, cap);
  }
  return out;
}

/** History or update summary text for `messages`, merged into `previousSummary` when given. */
export function summarizeHistoryDeterministically(params: {
  messages: readonly AgentMessage[];
  previousSummary?: string;
  customInstructions?: string;
  maxTokens: number;
}): string {
  const facts = readConversation(params.messages, params.customInstructions);
  const merged = params.previousSummary
    ? mergeHistorySections(parseSummarySections(params.previousSummary), facts.sections)
    : facts.sections;
  // Critical Context keeps its first items: identifiers are read only until the cap is reached
  const sections = { ...merged, critical: mergeItemsUpTo(merged.critical, facts.identifiers, SECTION_CAPS.critical) };
  return fitSectionsToBudget(capSections(sections), HISTORY_DROP_ORDER, renderHistorySections, params.maxTokens);
}

/** Split-turn prefix summary: the turn's request, what was done so far, and what the kept suffix needs. */
export function summarizeTurnPrefixDeterministically(params: {
  messages: readonly AgentMessage[];
  customInstructions?: string;
  maxTokens: number;
}): string {
  const facts = readConversation(params.messages, params.customInstructions);
  const s = facts.sections;
  const contextBeforeCritical = [
    ...s.inProgress.map((p) => `pending: ${p}`),
    ...s.blocked.map((b) => `failed: ${b}`),
    ...s.decisions,
  ];
  const maxContextItems = 40;
  const critical = mergeItemsUpTo(
    s.critical,
    facts.identifiers,
    Math.max(0, maxContextItems - contextBeforeCritical.length),
  );
  const sections: TurnPrefixSections = {
    originalRequest: facts.userRequests.length > 0 ? [clip(facts.userRequests[0]!, 600)] : [],
    earlyProgress: [...s.done.map((d) => `done: ${d}`), ...facts.assistantStatements].slice(-12),
    contextForSuffix: [...contextBeforeCritical, ...critical].slice(0, maxContextItems),
  };
  return fitSectionsToBudget(
    sections,
    ['earlyProgress', 'contextForSuffix', 'originalRequest'],
    renderTurnPrefixSections,
    params.maxTokens,
  );
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Summarization aborted');
}

/** The summary a deterministic summarizer returns for `request`. */
export function summarizeDeterministically(request: SummaryRequest): string {
  if (request.kind === 'turn-prefix') {
    return summarizeTurnPrefixDeterministically({
      messages: request.messages,
      customInstructions: request.customInstructions,
      maxTokens: request.maxTokens,
    });
  }
  return summarizeHistoryDeterministically({
    messages: request.messages,
    previousSummary: request.kind === 'update' ? request.previousSummary : undefined,
    customInstructions: request.customInstructions,
    maxTokens: request.maxTokens,
  });
}

const deterministicSummarizers = new WeakSet<Summarizer>();

/** Whether `summarizer` is one createDeterministicSummarizer made (its `complete` depends on its arguments alone). */
export function isDeterministicSummarizer(summarizer: Summarizer): boolean {
  return deterministicSummarizers.has(summarizer);
}

export function createDeterministicSummarizer(): Summarizer {
  const summarizer: Summarizer = {
    id: 'deterministic',
    async summarize(request: SummaryRequest): Promise<SummaryOutput> {
      throwIfAborted(request.signal);
      const summary = summarizeDeterministically(request);
      let usage: SummaryOutput['usage'];
      return {
        summary,
        provider: DETERMINISTIC_PROVIDER,
        model: DETERMINISTIC_MODEL,
        // measured on first read (it renders the prompt): the built-in compaction only reads the summary
        get usage() {
          return (usage ??= {
            inputTokens: estimateTextTokens(request.systemPrompt) + estimateTextTokens(request.prompt),
            outputTokens: estimateTextTokens(summary),
          });
        },
      };
    },
    /**
     * Offline stand-in for an LLM completion: answered with the extractive history summary, within `maxTokens`
     * (default 1024), of what the request asks to summarize (readPromptMaterial.ts: the instruction paragraph
     * left out, a transcript rendered as text read back as messages, earlier summaries merged section by
     * section); system messages and `systemPrompt` are instructions, not content, so they are not summarized.
     */
    async complete(params: LlmCompleteParams): Promise<LlmCompleteResult> {
      throwIfAborted(params.signal);
      const maxTokens = params.maxTokens && params.maxTokens > 0 ? params.maxTokens : DEFAULT_COMPLETE_MAX_TOKENS;
      const material = readPromptMaterial(params);
      const previousSummary =
        material.summaries.length > 0
          ? renderHistorySections(material.summaries.map(parseSummarySections).reduce(mergeHistorySections))
          : undefined;
      const text = summarizeHistoryDeterministically({
        messages: material.messages,
        ...(previousSummary !== undefined ? { previousSummary } : {}),
        maxTokens,
      });
      const inputText = [params.systemPrompt ?? '', ...params.messages.map((m) => m.content)].join('\n');
      const inputTokens = estimateTextTokens(inputText);
      const outputTokens = estimateTextTokens(text);
      return {
        text,
        provider: DETERMINISTIC_PROVIDER,
        model: DETERMINISTIC_MODEL,
        usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      };
    },
  };
  deterministicSummarizers.add(summarizer);
  return summarizer;
}

/** Public API of src/summarize: the Summarizer contract, prompts, and the deterministic and HTTP summarizers. */
export type { Summarizer, SummaryKind, SummaryOutput, SummaryRequest } from './types';
export {
  IDENTIFIER_PRESERVATION_INSTRUCTIONS,
  SUMMARIZATION_PROMPT,
  SUMMARIZATION_SYSTEM_PROMPT,
  SUMMARY_FORMAT,
  TURN_PREFIX_FORMAT,
  TURN_PREFIX_SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
  composeSummaryInstructions,
  type IdentifierPolicy,
} from './prompts';
export {
  buildSummaryRequest,
  promptForKind,
  renderSummaryPromptText,
  resolveSummaryOutputTokens,
  type BuildSummaryRequestInput,
} from './buildSummaryRequest';
export { serializeConversation, serializeConversationEntries, TOOL_RESULT_MAX_CHARS } from './serializeConversation';
export { extractIdentifiers } from './extractIdentifiers';
export {
  DETERMINISTIC_MODEL,
  DETERMINISTIC_PROVIDER,
  createDeterministicSummarizer,
  isDeterministicSummarizer,
  summarizeDeterministically,
  summarizeHistoryDeterministically,
  summarizeTurnPrefixDeterministically,
} from './deterministicSummarizer';
export {
  DEFAULT_LLM_TIMEOUT_MS,
  createOpenAiCompatibleSummarizer,
  type OpenAiCompatibleOptions,
} from './openAiCompatibleSummarizer';
export { LlmRequestError, chatCompletionsUrl } from './chatCompletions';
export {
  parseSummarySections,
  renderHistorySections,
  mergeHistorySections,
  type HistorySections,
} from './summarySections';

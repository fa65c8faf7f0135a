/** Public API of src/tokens: OpenClaw's estimators (exact re-implementations) and cached tiktoken counts. */
export {
  CHARS_PER_TOKEN_ESTIMATE,
  estimateStringChars,
  estimateTextTokens,
  type CjkCounting,
} from './estimateStringChars';
export {
  IMAGE_OMISSION_NOTE,
  NON_TEXT_OMISSION_NOTE,
  formatPersistedSenderSuffix,
  getCompactionContent,
  stringifyCompactionValue,
} from './compactionContent';
export {
  COMPACTION_IMAGE_TOKENS,
  estimateMessageChars,
  estimateMessageTokens,
  estimateMessageTokensBy,
  estimateMessagesTokens,
  estimatePlainMessageChars,
  type MessageEstimator,
} from './estimateMessageTokens';
export {
  CONTENT_BLOCK_OVERHEAD_TOKENS,
  MESSAGE_BOUNDARY_OVERHEAD_TOKENS,
  PRECHECK_IMAGE_BLOCK_TOKENS,
  PRECHECK_SAFETY_MARGIN,
  applyPrecheckSafetyMargin,
  estimatePrecheckMessageTokens,
  estimatePrecheckTokens,
  estimatePrecheckTokensFromMessageSum,
  estimatePromptFrameTokens,
  estimateRenderedPromptTokens,
} from './estimatePrecheckTokens';
export {
  DEFAULT_CONTEXT_TOKEN_BUDGET,
  deriveAssembleTokenBudget,
  type AssembleTokenBudget,
  type AssembleTokenBudgetInput,
} from './deriveAssembleTokenBudget';
export { TOKENIZER_IMAGE_TOKENS, messageTokenText, type MessageTokenText } from './messageTokenText';
export {
  TOKENIZER_MAX_PIECE_CHARS,
  TOKENIZER_MAX_RUN_CHARS,
  isSoftCut,
  splitAtLineStarts,
  splitForTokenizer,
  type SplitLimits,
  type TokenizerPieces,
} from './splitForTokenizer';
export {
  DEFAULT_TOKEN_ENCODING,
  countTokens,
  createTokenCounter,
  encodingForModel,
  type TokenCounter,
  type TokenCounterStats,
  type TokenEncoding,
} from './tiktokenCounter';

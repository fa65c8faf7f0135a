/**
 * OpenClaw's built-in compaction run against a live transcript (harness `prepareCompaction` + `compact()` and
 * the embedded runner's direct compaction; behaviour §3.3), in the reference's steps: the trigger, the preparation,
 * summary generation, the final summary string, the `compaction` entry appended through the
 * `SessionTranscriptHandle`, and the rebuilt context measured.
 */
import type {
  AgentMessage,
  CompactionDetails,
  CompactionEntry,
  CompactResult,
  SessionTranscriptHandle,
} from '../../contract';
import { resolveCompactionSettings, type CompactionSettings } from '../../runtime/compactionSettings';
import { createDeterministicSummarizer, type IdentifierPolicy, type Summarizer } from '../../summarize';
import { composeCompactionSummary } from './compactionSummaryLayout';
import { estimateContextTokens } from './estimateContextTokens';
import { computeFileLists, formatFileOperations } from './fileOperations';
import { generateSummaries, type GeneratedSummaries } from './generateSummary';
import type { HarnessBehaviour } from './harnessBehaviour';
import { messagesTokens } from './messageTokens';
import type { MessageEstimator } from '../../tokens';
import { prepareCompaction, type CompactionPreparation } from './prepareCompaction';
import { shouldCompact } from './shouldCompact';
import { compactionPathOf, contextMessagesOf } from './trackedTranscript';
import { errorMessage } from '../../common/errorText';

export interface CompactTranscriptOptions {
  transcript: SessionTranscriptHandle;
  /** default: the deterministic summarizer */
  summarizer?: Summarizer;
  /** default: `resolveCompactionSettings({ contextTokenBudget: tokenBudget })` */
  settings?: CompactionSettings;
  /** compact even when the trigger does not hold */
  force?: boolean;
  customInstructions?: string;
  /** the model's context window for the trigger (`CompactParams.tokenBudget`) */
  tokenBudget?: number;
  /** a live context estimate from the caller; replaces the transcript estimate for the trigger */
  currentTokenCount?: number;
  signal?: AbortSignal;
  /** the model's output cap, bounding the summary's maxTokens */
  modelMaxTokens?: number;
  identifierPolicy?: IdentifierPolicy;
  identifierInstructions?: string;
  /** carry the latest user request as `## Latest unresolved user request` (run-owned recovery compactions) */
  latestRequestUnresolved?: boolean;
  /** the release line's harness (default 2026.9) */
  harness?: HarnessBehaviour;
  /**
   * which of the transcript's messages the compaction measures (`tokensBefore`, the usage-scaled cut): a replay
   * leaves out what later runs appended after the point OpenClaw compacted at (default: the whole context)
   */
  measuredMessages?: (messages: readonly AgentMessage[]) => readonly AgentMessage[];
}

/** A CompactResult plus the appended entry, for callers that show it (the replay). */
export interface CompactTranscriptResult extends CompactResult {
  entry?: CompactionEntry;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('Compaction aborted');
}

export async function compactTranscript(options: CompactTranscriptOptions): Promise<CompactTranscriptResult> {
  const { transcript, signal } = options;
  throwIfAborted(signal);
  const settings = options.settings ?? resolveCompactionSettings({ contextTokenBudget: options.tokenBudget });
  if (!options.force) {
    const skipped = checkTrigger(options, settings);
    if (skipped) return skipped;
  }

  const preparation = prepareCompaction(compactionPathOf(transcript), settings, {
    latestRequestUnresolved: options.latestRequestUnresolved,
    contextMessages: (options.measuredMessages ?? ((m) => m))(contextMessagesOf(transcript)),
    ...(options.harness ? { harness: options.harness } : {}),
  });
  if (!preparation) return { ok: true, compacted: false, reason: 'nothing to compact' };

  const summarizer = options.summarizer ?? createDeterministicSummarizer();
  let summaries: GeneratedSummaries;
  try {
    summaries = await generateSummaries(summarizer, preparation, settings, options);
  } catch (error) {
    throwIfAborted(signal);
    const message = errorMessage(error);
    return { ok: false, compacted: false, reason: `summarization failed (${summarizer.id} summarizer): ${message}` };
  }
  throwIfAborted(signal);

  const { summary, details } = composeFinalSummary(preparation, summaries);
  const entry = transcript.appendEntry({
    type: 'compaction',
    summary,
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details,
  }) as CompactionEntry;
  return compactedResult(transcript, preparation, summary, details, entry, options.harness?.messageEstimator);
}

/** The auto-compaction trigger (`shouldCompact`); the result that skips compaction when it does not hold. */
function checkTrigger(options: CompactTranscriptOptions, settings: CompactionSettings): CompactResult | undefined {
  if (!settings.enabled) return { ok: true, compacted: false, reason: 'compaction disabled' };
  // without a context window the trigger cannot hold; with a caller's live count the transcript is not read
  const window = options.tokenBudget ?? 0;
  if (window <= 0) return { ok: true, compacted: false, reason: 'below threshold' };
  const contextTokens =
    options.currentTokenCount ?? estimateContextTokens(contextMessagesOf(options.transcript), options.harness).tokens;
  if (!shouldCompact(contextTokens, window, settings)) return { ok: true, compacted: false, reason: 'below threshold' };
  return undefined;
}

/** The final summary string and the entry's details: request, history, turn context and file lists. */
function composeFinalSummary(
  preparation: CompactionPreparation,
  summaries: GeneratedSummaries,
): { summary: string; details: CompactionDetails } {
  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  const request = preparation.latestUnresolvedUserRequest;
  const summary = composeCompactionSummary({
    historySummary: summaries.historySummary,
    ...(summaries.turnPrefixSummary !== undefined ? { turnPrefixSummary: summaries.turnPrefixSummary } : {}),
    fileOperations: formatFileOperations(readFiles, modifiedFiles),
    ...(request ? { latestUnresolvedUserRequest: request } : {}),
  });
  return {
    summary,
    details: { readFiles, modifiedFiles, ...(request ? { latestUnresolvedUserRequest: request } : {}) },
  };
}

function compactedResult(
  transcript: SessionTranscriptHandle,
  preparation: CompactionPreparation,
  summary: string,
  details: CompactionDetails,
  entry: CompactionEntry,
  estimator: MessageEstimator = 'weighted',
): CompactTranscriptResult {
  // OpenClaw measures the compacted context with the per-message estimate (stale provider usage on kept
  // assistant messages would still describe the old, uncompacted context)
  const tokensAfter = messagesTokens(contextMessagesOf(transcript), estimator);
  return {
    ok: true,
    compacted: true,
    result: {
      summary,
      firstKeptEntryId: preparation.firstKeptEntryId,
      tokensBefore: preparation.tokensBefore,
      tokensAfter,
      details,
    },
    entry,
  };
}

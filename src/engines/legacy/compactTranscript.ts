/**
 * OpenClaw's built-in compaction run against a live transcript (harness `prepareCompaction` + `compact()` and
 * the embedded runner's direct compaction; spec §3.3): decide, summarize through a `Summarizer`, lay the summary
 * out, append the `compaction` entry through the `SessionTranscriptHandle`, and measure the rebuilt context.
 */
import type {
  AgentMessage,
  CompactionEntry,
  CompactResult,
  SessionEntry,
  SessionTranscriptHandle,
} from '../../contract';
import { resolveCompactionSettings, type CompactionSettings } from '../../runtime/compactionSettings';
import {
  buildSummaryRequest,
  createDeterministicSummarizer,
  resolveSummaryOutputTokens,
  type IdentifierPolicy,
  type Summarizer,
} from '../../summarize';
import { buildContextFromPath } from '../../transcripts';
import { composeCompactionSummary } from './compactionSummaryLayout';
import { estimateContextTokens } from './estimateContextTokens';
import { computeFileLists, formatFileOperations } from './fileOperations';
import { messagesTokens } from './messageTokens';
import { prepareCompaction } from './prepareCompaction';
import { shouldCompact } from './shouldCompact';
import { errorMessage } from '../../common/errorText';

/** Summary used when only a split-turn prefix is summarized and no earlier summary exists. */
export const NO_PRIOR_HISTORY = 'No prior history.';

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
}

/** A CompactResult plus the appended entry, for callers that show it (the replay). */
export interface CompactTranscriptResult extends CompactResult {
  entry?: CompactionEntry;
}

/**
 * A transcript handle that keeps its model context (the replay's lane transcripts), so a compaction reads only the
 * entries from the latest boundary on instead of the whole branch.
 */
export interface TrackedTranscriptHandle extends SessionTranscriptHandle {
  /** `buildContextFromPath(activePath()).messages` */
  contextMessages(): readonly AgentMessage[];
  /**
   * The end of `activePath()` from where the model context starts: the latest compaction or reset's first kept
   * entry when it comes before the boundary, else the boundary (the whole path without one). Its context is the
   * whole path's, and so is its `prepareCompaction` (but for `firstKeptEntryIndex`, which counts from its start).
   */
  contextPath(): SessionEntry[];
}

function isTracked(transcript: SessionTranscriptHandle): transcript is TrackedTranscriptHandle {
  const t = transcript as Partial<TrackedTranscriptHandle>;
  return typeof t.contextMessages === 'function' && typeof t.contextPath === 'function';
}

/** `buildContextFromPath(transcript.activePath()).messages` */
function contextMessagesOf(transcript: SessionTranscriptHandle): readonly AgentMessage[] {
  return isTracked(transcript) ? transcript.contextMessages() : buildContextFromPath(transcript.activePath()).messages;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('Compaction aborted');
}

export async function compactTranscript(options: CompactTranscriptOptions): Promise<CompactTranscriptResult> {
  const { transcript, signal } = options;
  if (signal?.aborted) throw abortReason(signal);
  const settings = options.settings ?? resolveCompactionSettings({ contextTokenBudget: options.tokenBudget });
  if (!options.force) {
    if (!settings.enabled) return { ok: true, compacted: false, reason: 'compaction disabled' };
    // without a context window the trigger cannot hold; with a caller's live count the transcript is not read
    const window = options.tokenBudget ?? 0;
    if (window <= 0) return { ok: true, compacted: false, reason: 'below threshold' };
    const contextTokens = options.currentTokenCount ?? estimateContextTokens(contextMessagesOf(transcript)).tokens;
    if (!shouldCompact(contextTokens, window, settings))
      return { ok: true, compacted: false, reason: 'below threshold' };
  }

  const path = isTracked(transcript) ? transcript.contextPath() : transcript.activePath();
  const preparation = prepareCompaction(path, settings, {
    latestRequestUnresolved: options.latestRequestUnresolved,
    contextMessages: contextMessagesOf(transcript),
  });
  if (!preparation) return { ok: true, compacted: false, reason: 'nothing to compact' };

  const summarizer = options.summarizer ?? createDeterministicSummarizer();
  const requestOptions = {
    customInstructions: options.customInstructions,
    identifierPolicy: options.identifierPolicy,
    identifierInstructions: options.identifierInstructions,
    signal,
  };
  const summarizeTurnPrefix = preparation.isSplitTurn && preparation.turnPrefixMessages.length > 0;

  let historySummary: string;
  let turnPrefixSummary: string | undefined;
  try {
    if (preparation.messagesToSummarize.length > 0 || !summarizeTurnPrefix) {
      const request = buildSummaryRequest({
        ...requestOptions,
        messages: preparation.messagesToSummarize,
        previousSummary: preparation.previousSummary,
        maxTokens: resolveSummaryOutputTokens({
          reserveTokens: settings.reserveTokens,
          modelMaxTokens: options.modelMaxTokens,
        }),
      });
      historySummary = (await summarizer.summarize(request)).summary;
    } else {
      // only a turn prefix is new: keep the previous summary without the file lists it already carried
      const previousLists = preparation.previousSummaryDetails
        ? formatFileOperations(
            preparation.previousSummaryDetails.readFiles,
            preparation.previousSummaryDetails.modifiedFiles,
          )
        : '';
      const previous = preparation.previousSummary;
      historySummary =
        previous !== undefined && previousLists && previous.endsWith(previousLists)
          ? previous.slice(0, -previousLists.length)
          : (previous ?? NO_PRIOR_HISTORY);
    }
    if (summarizeTurnPrefix) {
      const request = buildSummaryRequest({
        ...requestOptions,
        messages: preparation.turnPrefixMessages,
        turnPrefix: true,
        maxTokens: resolveSummaryOutputTokens({
          reserveTokens: settings.reserveTokens,
          modelMaxTokens: options.modelMaxTokens,
          turnPrefix: true,
        }),
      });
      turnPrefixSummary = (await summarizer.summarize(request)).summary;
    }
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    const message = errorMessage(error);
    return { ok: false, compacted: false, reason: `summarization failed (${summarizer.id} summarizer): ${message}` };
  }
  if (signal?.aborted) throw abortReason(signal);

  const { readFiles, modifiedFiles } = computeFileLists(preparation.fileOps);
  const summary = composeCompactionSummary({
    historySummary,
    ...(turnPrefixSummary !== undefined ? { turnPrefixSummary } : {}),
    fileOperations: formatFileOperations(readFiles, modifiedFiles),
    ...(preparation.latestUnresolvedUserRequest
      ? { latestUnresolvedUserRequest: preparation.latestUnresolvedUserRequest }
      : {}),
  });
  const details = {
    readFiles,
    modifiedFiles,
    ...(preparation.latestUnresolvedUserRequest
      ? { latestUnresolvedUserRequest: preparation.latestUnresolvedUserRequest }
      : {}),
  };
  const entry = transcript.appendEntry({
    type: 'compaction',
    summary,
    firstKeptEntryId: preparation.firstKeptEntryId,
    tokensBefore: preparation.tokensBefore,
    details,
  }) as CompactionEntry;

  // OpenClaw measures the compacted context with the per-message estimate (stale provider usage on kept
  // assistant messages would still describe the old, uncompacted context)
  const tokensAfter = messagesTokens(contextMessagesOf(transcript));
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

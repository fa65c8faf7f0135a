/**
 * What a compaction of a branch would summarize and keep (harness `prepareCompaction`, behaviour §3.3 "Preparation"):
 * boundaries, the previous summary and its file lists, `tokensBefore`, the cut point, the messages to summarize
 * and the split-turn prefix. Pure; `undefined` when there is nothing to do.
 */
import { isRecord } from '../../common';
import type { AgentMessage, CompactionDetails, SessionEntry } from '../../contract';
import type { CompactionSettings } from '../../runtime/compactionSettings';
import { buildContextFromPath, selectResetKeptEntries } from '../../transcripts';
import { messageForCompaction } from './compactionEntries';
import { extractLatestUserRequest, MAX_LATEST_USER_REQUEST_CHARS } from './compactionSummaryLayout';
import { estimateContextTokens, type ContextTokenEstimate } from './estimateContextTokens';
import {
  createFileOps,
  extractFileOpsFromMessage,
  mergeRecordedFileLists,
  type FileOperations,
} from './fileOperations';
import { findCutPoint, type CutPointResult } from './findCutPoint';
import { HARNESS_2026_9, type HarnessBehaviour } from './harnessBehaviour';
import { messageTokens } from './messageTokens';
import type { MessageEstimator } from '../../tokens';

export interface CompactionPreparation {
  firstKeptEntryId: string;
  /** index of the first kept entry in `pathEntries` */
  firstKeptEntryIndex: number;
  messagesToSummarize: AgentMessage[];
  /** the part of a split turn before the cut, summarized separately */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  /** the context estimate before compaction (`estimateContextTokens(buildContextFromPath(path).messages).tokens`) */
  tokensBefore: number;
  /** the previous compaction's summary, merged into the new one */
  previousSummary?: string;
  /** file lists the previous (non-hook) compaction recorded */
  previousSummaryDetails?: { readFiles: string[]; modifiedFiles: string[] };
  latestUnresolvedUserRequest?: string;
  fileOps: FileOperations;
  /** the keep-recent budget actually used for the cut, in compaction-estimate units */
  effectiveKeepRecentTokens: number;
  settings: CompactionSettings;
}

export interface PrepareCompactionOptions {
  /**
   * The run that compacts still owes the user an answer (overflow/precheck recovery mid-run): the latest user
   * request is carried into the summary under `## Latest unresolved user request`.
   */
  latestRequestUnresolved?: boolean;
  /** `buildContextFromPath(pathEntries).messages` when the caller has it (computed otherwise) */
  contextMessages?: readonly AgentMessage[];
  /** the release line's harness (default 2026.9) */
  harness?: HarnessBehaviour;
}

/** The latest compaction or reset on the path and what it carries into the next compaction (step 2). */
interface CompactionBoundary {
  previousSummary?: string;
  previousSummaryDetails?: CompactionPreparation['previousSummaryDetails'];
  /** the latest unresolved user request the previous compaction recorded */
  previousRequest?: string;
  /** the entries the cut is searched in: the whole path, or those after a reset */
  entries: readonly SessionEntry[];
  /** index in `entries` where the range to summarize starts */
  rangeStart: number;
  /** after a reset: the kept prelude's messages, always summarized */
  resetPrelude: AgentMessage[];
}

function parseDetails(
  value: unknown,
): (CompactionDetails & { readFiles: string[]; modifiedFiles: string[] }) | undefined {
  if (!isRecord(value)) return undefined;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!strings(value.readFiles) || !strings(value.modifiedFiles)) return undefined;
  const request = value.latestUnresolvedUserRequest;
  return {
    readFiles: value.readFiles,
    modifiedFiles: value.modifiedFiles,
    ...(typeof request === 'string' && request.length <= MAX_LATEST_USER_REQUEST_CHARS
      ? { latestUnresolvedUserRequest: request }
      : {}),
  };
}

export function prepareCompaction(
  pathEntries: readonly SessionEntry[],
  settings: CompactionSettings,
  options: PrepareCompactionOptions = {},
): CompactionPreparation | undefined {
  const harness = options.harness ?? HARNESS_2026_9;
  const appendsEmpty = harness.emptyCompaction === 'append';
  const last = pathEntries[pathEntries.length - 1];
  // compacting right after a reset or a hook-made compaction would loop (2026.7: right after any compaction)
  if (!last || (appendsEmpty ? last.type === 'compaction' : blocksCompaction(last))) return undefined;

  const boundary = findBoundary(pathEntries);
  const contextMessages = options.contextMessages ?? buildContextFromPath(pathEntries).messages;
  const latestUnresolvedUserRequest = options.latestRequestUnresolved
    ? (extractLatestUserRequest(contextMessages) ?? boundary.previousRequest)
    : undefined;
  const contextUsage = estimateContextTokens(contextMessages, harness);
  const effectiveKeepRecentTokens = harness.scaleKeepRecentByUsage
    ? keepRecentTokensForCut(settings, contextMessages, contextUsage, boundary, harness.messageEstimator)
    : settings.keepRecentTokens;

  const { entries, rangeStart } = boundary;
  const cut = findCutPoint(entries, rangeStart, entries.length, effectiveKeepRecentTokens, harness.messageEstimator);
  const firstKept = entries[cut.firstKeptEntryIndex];
  if (!firstKept) return undefined;
  const { messagesToSummarize, turnPrefixMessages } = messagesBeforeCut(boundary, cut);
  if (!appendsEmpty && messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

  const { previousSummary, previousSummaryDetails } = boundary;
  return {
    firstKeptEntryId: firstKept.id,
    firstKeptEntryIndex: cut.firstKeptEntryIndex + pathEntries.length - entries.length,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore: contextUsage.tokens,
    ...(previousSummary !== undefined ? { previousSummary } : {}),
    ...(previousSummaryDetails ? { previousSummaryDetails } : {}),
    ...(latestUnresolvedUserRequest ? { latestUnresolvedUserRequest } : {}),
    fileOps: collectFileOperations(previousSummaryDetails, messagesToSummarize, turnPrefixMessages, cut.isSplitTurn),
    effectiveKeepRecentTokens,
    settings,
  };
}

function blocksCompaction(last: SessionEntry): boolean {
  return last.type === 'reset' || (last.type === 'compaction' && last.fromHook === true);
}

function findBoundary(pathEntries: readonly SessionEntry[]): CompactionBoundary {
  let boundaryIndex = -1;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    const type = pathEntries[i]!.type;
    if (type === 'compaction' || type === 'reset') {
      boundaryIndex = i;
      break;
    }
  }
  const none: CompactionBoundary = { entries: pathEntries, rangeStart: 0, resetPrelude: [] };
  if (boundaryIndex < 0) return none;

  const boundary = pathEntries[boundaryIndex]!;
  const keptId = boundary.type === 'compaction' || boundary.type === 'reset' ? boundary.firstKeptEntryId : undefined;
  const keptIndex = keptId === undefined ? -1 : pathEntries.findIndex((e) => e.id === keptId);
  if (boundary.type === 'compaction') {
    const details = parseDetails(boundary.details);
    return {
      ...none,
      previousSummary: boundary.summary,
      previousRequest: details?.latestUnresolvedUserRequest,
      ...(!boundary.fromHook && details
        ? { previousSummaryDetails: { readFiles: details.readFiles, modifiedFiles: details.modifiedFiles } }
        : {}),
      rangeStart: keptIndex >= 0 ? keptIndex : boundaryIndex + 1,
    };
  }
  // after a reset the retained prelude is always summarized, and only entries after the reset are cut
  const kept =
    keptIndex >= 0 ? selectResetKeptEntries(pathEntries.slice(keptIndex, boundaryIndex)) : new Set<SessionEntry>();
  const resetPrelude: AgentMessage[] = [];
  for (const entry of kept) {
    const message = messageForCompaction(entry);
    if (message) resetPrelude.push(message);
  }
  return { entries: pathEntries.slice(boundaryIndex + 1), rangeStart: 0, resetPrelude };
}

/**
 * Provider usage counts prompt/tool-schema tokens the estimator does not see. Scale keepRecentTokens into estimate
 * units so the cut keeps what the trigger measured (never less than a one-token tail); a reset prelude, always
 * summarized, is added on top.
 */
function keepRecentTokensForCut(
  settings: CompactionSettings,
  contextMessages: readonly AgentMessage[],
  contextUsage: ContextTokenEstimate,
  boundary: CompactionBoundary,
  estimator: MessageEstimator,
): number {
  const totalEstimated = sumMessageTokens(contextMessages, estimator);
  const triggerUnitScale =
    totalEstimated > 0 && Number.isFinite(contextUsage.usageTokens)
      ? Math.min(Math.max(1, settings.keepRecentTokens), Math.max(1, contextUsage.usageTokens / totalEstimated))
      : 1;
  const preludeTokens = sumMessageTokens(boundary.resetPrelude, estimator);
  return Math.min(Number.MAX_SAFE_INTEGER, settings.keepRecentTokens / triggerUnitScale + preludeTokens);
}

/** Every message's estimate, runtime-context carriers included (unlike `messagesTokens`). */
function sumMessageTokens(messages: readonly AgentMessage[], estimator: MessageEstimator): number {
  let total = 0;
  for (const message of messages) total += messageTokens(message, estimator);
  return total;
}

/** The messages before the cut: history to summarize (reset prelude first) and a split turn's prefix. */
function messagesBeforeCut(
  boundary: CompactionBoundary,
  cut: CutPointResult,
): { messagesToSummarize: AgentMessage[]; turnPrefixMessages: AgentMessage[] } {
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize: AgentMessage[] = [...boundary.resetPrelude];
  const turnPrefixMessages: AgentMessage[] = [];
  for (let i = boundary.rangeStart; i < cut.firstKeptEntryIndex; i++) {
    const message = messageForCompaction(boundary.entries[i]!);
    if (message) (i < historyEnd ? messagesToSummarize : turnPrefixMessages).push(message);
  }
  return { messagesToSummarize, turnPrefixMessages };
}

/** File operations across the compaction boundaries: the previous lists, then what the summarized tool calls did. */
function collectFileOperations(
  previousSummaryDetails: CompactionPreparation['previousSummaryDetails'],
  messagesToSummarize: readonly AgentMessage[],
  turnPrefixMessages: readonly AgentMessage[],
  isSplitTurn: boolean,
): FileOperations {
  const fileOps = createFileOps();
  if (previousSummaryDetails) mergeRecordedFileLists(fileOps, previousSummaryDetails);
  for (const message of messagesToSummarize) extractFileOpsFromMessage(message, fileOps);
  if (isSplitTurn) for (const message of turnPrefixMessages) extractFileOpsFromMessage(message, fileOps);
  return fileOps;
}

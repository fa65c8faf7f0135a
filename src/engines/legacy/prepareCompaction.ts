/**
 * What a compaction of a branch would summarize and keep (harness `prepareCompaction`, spec §3.3 "Preparation"):
 * boundaries, the previous summary and its file lists, `tokensBefore`, the cut point, the messages to summarize
 * and the split-turn prefix. Pure; `undefined` when there is nothing to do.
 */
import type { AgentMessage, CompactionDetails, SessionEntry } from '../../contract';
import type { CompactionSettings } from '../../runtime/compactionSettings';
import { buildContextFromPath, selectResetKeptEntries } from '../../transcripts';
import { messageForCompaction } from './compactionEntries';
import { extractLatestUserRequest, MAX_LATEST_USER_REQUEST_CHARS } from './compactionSummaryLayout';
import { estimateContextTokens } from './estimateContextTokens';
import {
  createFileOps,
  extractFileOpsFromMessage,
  mergeRecordedFileLists,
  type FileOperations,
} from './fileOperations';
import { findCutPoint } from './findCutPoint';
import { messageTokens } from './messageTokens';

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
}

function parseDetails(
  value: unknown,
): (CompactionDetails & { readFiles: string[]; modifiedFiles: string[] }) | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const d = value as Record<string, unknown>;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!strings(d.readFiles) || !strings(d.modifiedFiles)) return undefined;
  const request = d.latestUnresolvedUserRequest;
  return {
    readFiles: d.readFiles,
    modifiedFiles: d.modifiedFiles,
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
  const last = pathEntries[pathEntries.length - 1];
  // compacting right after a reset or a hook-made compaction would loop
  if (!last || last.type === 'reset' || (last.type === 'compaction' && last.fromHook)) return undefined;

  let boundaryIndex = -1;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    const type = pathEntries[i]!.type;
    if (type === 'compaction' || type === 'reset') {
      boundaryIndex = i;
      break;
    }
  }

  let previousSummary: string | undefined;
  let previousSummaryDetails: CompactionPreparation['previousSummaryDetails'];
  let previousRequest: string | undefined;
  let effectiveEntries: readonly SessionEntry[] = pathEntries;
  const resetPrelude: AgentMessage[] = [];
  let rangeStart = 0;

  if (boundaryIndex >= 0) {
    const boundary = pathEntries[boundaryIndex]!;
    const keptId = boundary.type === 'compaction' || boundary.type === 'reset' ? boundary.firstKeptEntryId : undefined;
    const keptIndex = keptId === undefined ? -1 : pathEntries.findIndex((e) => e.id === keptId);
    if (boundary.type === 'compaction') {
      previousSummary = boundary.summary;
      const details = parseDetails(boundary.details);
      previousRequest = details?.latestUnresolvedUserRequest;
      if (!boundary.fromHook && details) {
        previousSummaryDetails = { readFiles: details.readFiles, modifiedFiles: details.modifiedFiles };
      }
      rangeStart = keptIndex >= 0 ? keptIndex : boundaryIndex + 1;
    } else {
      // after a reset the retained prelude is always summarized, and only entries after the reset are cut
      const kept =
        keptIndex >= 0 ? selectResetKeptEntries(pathEntries.slice(keptIndex, boundaryIndex)) : new Set<SessionEntry>();
      for (const entry of kept) {
        const message = messageForCompaction(entry);
        if (message) resetPrelude.push(message);
      }
      effectiveEntries = pathEntries.slice(boundaryIndex + 1);
    }
  }

  const contextMessages = options.contextMessages ?? buildContextFromPath(pathEntries).messages;
  const latestUnresolvedUserRequest = options.latestRequestUnresolved
    ? (extractLatestUserRequest(contextMessages) ?? previousRequest)
    : undefined;
  const contextUsage = estimateContextTokens(contextMessages);
  let totalEstimated = 0;
  for (const message of contextMessages) totalEstimated += messageTokens(message);
  // Provider usage counts prompt/tool-schema tokens the estimator does not see. Scale keepRecentTokens into
  // estimate units so the cut keeps what the trigger measured (never less than a one-token tail).
  const triggerUnitScale =
    totalEstimated > 0 && Number.isFinite(contextUsage.usageTokens)
      ? Math.min(Math.max(1, settings.keepRecentTokens), Math.max(1, contextUsage.usageTokens / totalEstimated))
      : 1;
  let preludeTokens = 0;
  for (const message of resetPrelude) preludeTokens += messageTokens(message);
  const effectiveKeepRecentTokens = Math.min(
    Number.MAX_SAFE_INTEGER,
    settings.keepRecentTokens / triggerUnitScale + preludeTokens,
  );

  const rangeEnd = effectiveEntries.length;
  const cut = findCutPoint(effectiveEntries, rangeStart, rangeEnd, effectiveKeepRecentTokens);
  const firstKept = effectiveEntries[cut.firstKeptEntryIndex];
  if (!firstKept) return undefined;

  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize: AgentMessage[] = [...resetPrelude];
  const turnPrefixMessages: AgentMessage[] = [];
  for (let i = rangeStart; i < cut.firstKeptEntryIndex; i++) {
    const message = messageForCompaction(effectiveEntries[i]!);
    if (message) (i < historyEnd ? messagesToSummarize : turnPrefixMessages).push(message);
  }
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) return undefined;

  const fileOps = createFileOps();
  if (previousSummaryDetails) mergeRecordedFileLists(fileOps, previousSummaryDetails);
  for (const message of messagesToSummarize) extractFileOpsFromMessage(message, fileOps);
  if (cut.isSplitTurn) for (const message of turnPrefixMessages) extractFileOpsFromMessage(message, fileOps);

  const offset = pathEntries.length - effectiveEntries.length;
  return {
    firstKeptEntryId: firstKept.id,
    firstKeptEntryIndex: cut.firstKeptEntryIndex + offset,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore: contextUsage.tokens,
    ...(previousSummary !== undefined ? { previousSummary } : {}),
    ...(previousSummaryDetails ? { previousSummaryDetails } : {}),
    ...(latestUnresolvedUserRequest ? { latestUnresolvedUserRequest } : {}),
    fileOps,
    effectiveKeepRecentTokens,
    settings,
  };
}

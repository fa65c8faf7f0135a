/**
 * Where compaction cuts the branch (harness `findCutPoint`, behaviour §3.3 step 4, behaviour §14.58).
 *
 * Walking from the newest entry backwards, message estimates are added until they reach `keepRecentTokens`;
 * the cut is the valid cut entry nearest that position at or after it (assistant messages and turn starts — never
 * a tool result, so a kept tool call keeps its results). When the budget is never reached, everything from the
 * earliest valid cut is kept; when the budget is exhausted by trailing entries that contain no valid cut (e.g. one
 * huge tool result), the latest valid cut is used. The cut then moves back over adjacent metadata entries
 * (model/thinking changes, labels, custom state) and stops at a compaction, a reset or any message. A cut that is
 * not a turn start splits its turn; the turn start is reported so the prefix can be summarized separately.
 */
import type { SessionEntry } from '../../contract';
import { messageTokens } from './messageTokens';
import type { MessageEstimator } from '../../tokens';
import { isCutPointMessage, isTurnStartEntry, messageForCompaction } from './compactionEntries';

export interface CutPointResult {
  /** index of the first entry kept after compaction */
  firstKeptEntryIndex: number;
  /** index of the turn start when the cut splits a turn, otherwise -1 */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/** The nearest turn-start entry at or before `entryIndex` (not before `startIndex`), or -1. */
export function findTurnStartIndex(entries: readonly SessionEntry[], entryIndex: number, startIndex: number): number {
  for (let i = entryIndex; i >= startIndex; i--) {
    if (isTurnStartEntry(entries[i]!)) return i;
  }
  return -1;
}

/**
 * @param entries the branch path (root first)
 * @param startIndex first entry that may be summarized (after the previous boundary)
 * @param endIndex one past the last entry considered
 * @param keepRecentTokens compaction-estimate tokens to keep verbatim
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
  estimator: MessageEstimator = 'weighted',
): CutPointResult {
  let latestCut = -1;
  // Stryker disable next-line EqualityOperator: equivalent — a range whose only valid cut is at startIndex gives {startIndex, -1, false} whether or not that cut is found
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const message = messageForCompaction(entries[i]!);
    if (message && isCutPointMessage(message)) {
      latestCut = i;
      break;
    }
  }
  // Stryker disable next-line EqualityOperator: equivalent — latestCut 0 means startIndex 0 and a lone cut there, which the walk below also keeps from 0
  if (latestCut < 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  let cutIndex = latestCut;
  let accumulated = 0;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const message = messageForCompaction(entries[i]!);
    if (!message) continue;
    if (isCutPointMessage(message)) cutIndex = i;
    accumulated += messageTokens(message, estimator);
    if (accumulated >= keepRecentTokens) break;
  }

  while (cutIndex > startIndex) {
    const previous = entries[cutIndex - 1]!;
    if (previous.type === 'compaction' || previous.type === 'reset') break;
    if (previous.type === 'message' || messageForCompaction(previous)) break;
    cutIndex--;
  }

  const startsTurn = isTurnStartEntry(entries[cutIndex]!);
  const turnStartIndex = startsTurn ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}

import type { MessageEstimator } from '../../tokens';

/**
 * Where the vendored harness's compaction differs between OpenClaw release lines (read in openclaw@2026.7.35 dist
 * proxy-*.js and openclaw@2026.9.6 dist compaction-*.mjs):
 * - `estimateContextTokens`: 2026.9 skips usage computing to 0 and stops at a CLI reply without `contextUsage`
 *   (a barrier: everything is estimated); 2026.7 anchors on the last non-aborted/error usage, whatever it is;
 * - `prepareCompaction`: 2026.9 scales keepRecentTokens into estimate units (usage/estimate), returns nothing when
 *   there is nothing to summarize and refuses right after a reset or hook compaction; 2026.7 does not scale,
 *   refuses only right after a compaction, and otherwise always prepares — an empty history still gets its
 *   compaction entry;
 * - the per-message estimate: 2026.8+ weighs CJK characters, images and sender labels (`weighted`), 2026.7 and
 *   earlier count UTF-16 length (`plain`, src/tokens/estimateMessageTokens.ts).
 */
export interface HarnessBehaviour {
  usageSkipsZeroAndBarrier: boolean;
  scaleKeepRecentByUsage: boolean;
  emptyCompaction: 'skip' | 'append';
  messageEstimator: MessageEstimator;
}

export const HARNESS_2026_9: HarnessBehaviour = Object.freeze({
  usageSkipsZeroAndBarrier: true,
  scaleKeepRecentByUsage: true,
  emptyCompaction: 'skip',
  messageEstimator: 'weighted',
});

export const HARNESS_2026_7: HarnessBehaviour = Object.freeze({
  usageSkipsZeroAndBarrier: false,
  scaleKeepRecentByUsage: false,
  emptyCompaction: 'append',
  messageEstimator: 'plain',
});

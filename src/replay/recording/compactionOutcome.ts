/** A compaction of a lane turn as the findings judge it (kept on the turn's draft). */
export interface CompactionOutcome {
  trigger: 'auto' | 'overflow' | 'manual' | 'recorded' | 'budget';
  /** the engine's compact() ran (false for the harness auto-compaction and recorded compactions) */
  byEngine: boolean;
  force: boolean;
  /** the engine handed the compaction to the runtime (SDK delegateCompactionToRuntime) during the call */
  delegated?: boolean;
  ok: boolean;
  compacted: boolean;
  reason?: string;
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** compact() threw */
  error?: string;
  /**
   * the replay's own measure (OpenClaw's estimate) of the assembled context that led to the compaction and of the
   * next assemble after it; compaction-no-effect is judged by these when both are known
   */
  measuredBefore?: number;
  measuredAfter?: number;
}

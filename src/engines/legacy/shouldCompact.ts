/** The auto-compaction trigger (harness `shouldCompact`, behaviour §3.3, behaviour §14.59). */
import type { CompactionSettings } from '../../runtime/compactionSettings';

/** `enabled && window > 0 && contextTokens > window − reserveTokens`. */
export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
  if (!settings.enabled || !Number.isFinite(contextWindow) || contextWindow <= 0) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}

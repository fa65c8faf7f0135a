/**
 * A transcript-free `legacy` engine: OpenClaw's legacy contract (behaviour §3.1) without built-in compaction. The
 * runtime registers the real legacy engine (src/engines/legacy) by default; pass this one as
 * `createContextRuntime({ legacyFactory })` (src/engines) where fallbacks must not touch a session file (tests, previews).
 */
import type {
  AssembleParams,
  AssembleResult,
  CompactResult,
  ContextEngine,
  ContextEngineInfo,
  IngestResult,
} from '../contract';

/** OpenClaw's legacy engine info. */
export const LEGACY_PASS_THROUGH_ENGINE_INFO: ContextEngineInfo = Object.freeze({
  id: 'legacy',
  name: 'Legacy Context Engine',
  version: '1.0.0',
});

/** Reason the placeholder's `compact` gives. */
export const LEGACY_PASS_THROUGH_COMPACT_REASON =
  'legacy pass-through engine has no built-in compaction; create the runtime with the real legacy engine (legacyFactory) to compact';

/** Create the pass-through legacy engine (ingest no-op, assemble pass-through, compact not performed). */
export function createLegacyPassThroughEngine(): ContextEngine {
  return {
    info: LEGACY_PASS_THROUGH_ENGINE_INFO,
    async ingest(): Promise<IngestResult> {
      return { ingested: false };
    },
    async assemble(params: AssembleParams): Promise<AssembleResult> {
      return { messages: params.messages, estimatedTokens: 0 };
    },
    async afterTurn(): Promise<void> {},
    async compact(): Promise<CompactResult> {
      return { ok: true, compacted: false, reason: LEGACY_PASS_THROUGH_COMPACT_REASON };
    },
    async dispose(): Promise<void> {},
  };
}

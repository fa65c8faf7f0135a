/**
 * The `legacy` context engine (behaviour §3.1): pass-through assemble, no ingest, no-op afterTurn and dispose, and
 * `compact` delegated to the built-in compaction. It sets no `ownsCompaction` and no host requirements, and has
 * no bootstrap/maintain/ingestBatch/prepareSubagentSpawn/onSubagentEnded/commitTurn.
 */
import type {
  AfterTurnParams,
  AssembleParams,
  AssembleResult,
  CompactParams,
  CompactResult,
  ContextEngine,
  ContextEngineInfo,
  IngestParams,
  IngestResult,
} from '../../contract';
import type { CompactionSettings } from '../../runtime/compactionSettings';
import type { Summarizer } from '../../summarize';
import { delegateCompactionToRuntime, type DelegateCompactionDeps } from './delegateCompactionToRuntime';
import type { HarnessBehaviour } from './harnessBehaviour';

export const LEGACY_ENGINE_INFO: Readonly<ContextEngineInfo> = Object.freeze({
  id: 'legacy',
  name: 'Legacy Context Engine',
  version: '1.0.0',
});

export interface LegacyContextEngineOptions {
  summarizer?: Summarizer;
  resolveTranscript?: DelegateCompactionDeps['resolveTranscript'];
  /** fixed compaction settings (default: resolved per call from runtimeContext config and tokenBudget) */
  compaction?: CompactionSettings;
  modelMaxTokens?: number;
  /** the release line's harness compaction (default 2026.9) */
  harness?: HarnessBehaviour;
}

export function createLegacyContextEngine(options: LegacyContextEngineOptions = {}): ContextEngine {
  const deps: DelegateCompactionDeps = {
    ...(options.summarizer ? { summarizer: options.summarizer } : {}),
    ...(options.resolveTranscript ? { resolveTranscript: options.resolveTranscript } : {}),
    ...(options.compaction ? { settings: options.compaction } : {}),
    ...(options.modelMaxTokens !== undefined ? { modelMaxTokens: options.modelMaxTokens } : {}),
    ...(options.harness ? { harness: options.harness } : {}),
  };
  return {
    info: { ...LEGACY_ENGINE_INFO },
    // the session manager persists the transcript itself
    async ingest(_params: IngestParams): Promise<IngestResult> {
      return { ingested: false };
    },
    async assemble(params: AssembleParams): Promise<AssembleResult> {
      return { messages: params.messages, estimatedTokens: 0 };
    },
    async afterTurn(_params: AfterTurnParams): Promise<void> {},
    async compact(params: CompactParams): Promise<CompactResult> {
      return delegateCompactionToRuntime(params, deps);
    },
    async dispose(): Promise<void> {},
  };
}

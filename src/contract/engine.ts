/**
 * The ContextEngine contract (behaviour §1), E2 shape plus the E3 opt-ins (acceptedHostParams, sessionTarget, commitTurn).
 */
import type { AgentMessage } from './messages';

export type ContextEngineOperation = 'agent-run' | 'manual-compact' | 'subagent-spawn';

export type ContextEngineHostCapability =
  | 'bootstrap'
  | 'assemble-before-prompt'
  | 'after-turn'
  | 'maintain'
  | 'compact'
  | 'runtime-llm-complete'
  | 'thread-bootstrap-projection'
  | 'reference-context';

export interface ContextEngineHostRequirements {
  requiredCapabilities?: readonly ContextEngineHostCapability[];
  unsupportedMessage?: string;
}

export interface ContextEngineHostSupport {
  id: string;
  label: string;
  capabilities: readonly ContextEngineHostCapability[];
}

export interface ContextEngineInfo {
  id: string;
  name: string;
  version?: string;
  ownsCompaction?: boolean;
  turnMaintenanceMode?: 'foreground' | 'background';
  hostRequirements?: Partial<Record<ContextEngineOperation, ContextEngineHostRequirements>>;
  /** E3: host-added params the engine accepts (see behaviour §4.6). */
  acceptedHostParams?: string[];
  /** E3 */
  transcriptSemantics?: {
    currentTurnFence?: 'before-current-turn-entry-v1';
    turnAdvancementIdempotency?: 'atomic-idempotent-v1';
  };
}

export type RuntimeSettingsReasonCode =
  'provider_timeout' | 'provider_unavailable' | 'rate_limited' | 'context_overflow' | 'runtime_unavailable' | 'unknown';

/** Schema v1 (behaviour §6.1): every field present, unknowns are null. */
export interface ContextEngineRuntimeSettings {
  schemaVersion: 1;
  runtime: {
    host: 'openclaw';
    mode: 'normal' | 'fallback' | 'degraded';
    harnessId: string | null;
    runtimeId: string | null;
  };
  model: { requested: string | null; resolved: string | null; provider: string | null; family: string | null };
  contextEngineSelection: { selectedId: string | null; source: 'configured' | 'default' | 'unknown' };
  executionHost: { id: string | null; label: string | null };
  limits: { promptTokenBudget: number | null; maxOutputTokens: number | null };
  diagnostics: { fallbackReason: RuntimeSettingsReasonCode | null; degradedReason: RuntimeSettingsReasonCode | null };
}

export interface ContextEngineSessionTarget {
  agentId?: string;
  sessionId?: string;
  sessionKey?: string;
  storePath?: string;
  threadId?: string | number;
}

export interface TranscriptRewriteRequest {
  replacements: { entryId: string; message: AgentMessage }[];
  allowedRewriteSuffixEntryIds?: string[];
}

export interface TranscriptRewriteResult {
  changed: boolean;
  bytesFreed: number;
  rewrittenEntries: number;
  reason?: string;
}

export interface LlmCompleteParams {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  model?: string;
  maxTokens?: number;
  temperature?: number;
  systemPrompt?: string;
  signal?: AbortSignal;
  purpose?: string;
  agentId?: string;
}
export interface LlmCompleteResult {
  text: string;
  provider: string;
  model: string;
  usage: { inputTokens?: number; outputTokens?: number; totalTokens?: number; [k: string]: unknown };
}

/** An open record of runtime context (behaviour §1.4). */
export interface ContextEngineRuntimeContext {
  cwd?: string;
  allowDeferredCompactionExecution?: boolean;
  tokenBudget?: number;
  agentHarnessId?: string;
  currentTokenCount?: number;
  promptCache?: unknown;
  transcriptStorage?: { kind: 'sqlite' };
  sessionTarget?: ContextEngineSessionTarget;
  rewriteTranscriptEntries?(req: TranscriptRewriteRequest): Promise<TranscriptRewriteResult>;
  llm?: { complete(params: LlmCompleteParams): Promise<LlmCompleteResult> };
  [key: string]: unknown;
}

interface SessionParams {
  sessionId: string;
  sessionKey?: string;
}

export interface BootstrapParams extends SessionParams {
  sessionFile: string;
  sessionTarget?: ContextEngineSessionTarget;
  runtimeSettings?: ContextEngineRuntimeSettings;
  runtimeContext?: ContextEngineRuntimeContext;
}
export interface BootstrapResult {
  bootstrapped: boolean;
  importedMessages?: number;
  reason?: string;
}

export type MaintainReason = 'bootstrap' | 'turn' | 'compaction';
export interface MaintainParams extends SessionParams {
  sessionFile: string;
  sessionTarget?: ContextEngineSessionTarget;
  runtimeSettings?: ContextEngineRuntimeSettings;
  runtimeContext?: ContextEngineRuntimeContext;
  reason?: MaintainReason;
  abortSignal?: AbortSignal;
}
export type ContextEngineMaintenanceResult = TranscriptRewriteResult;

export interface IngestParams extends SessionParams {
  message: AgentMessage;
  isHeartbeat?: boolean;
}
export interface IngestResult {
  ingested: boolean;
}
export interface IngestBatchParams extends SessionParams {
  messages: AgentMessage[];
  isHeartbeat?: boolean;
}
export interface IngestBatchResult {
  ingestedCount: number;
}

export interface AfterTurnParams extends SessionParams {
  sessionFile: string;
  sessionTarget?: ContextEngineSessionTarget;
  messages: AgentMessage[];
  prePromptMessageCount: number;
  autoCompactionSummary?: string;
  isHeartbeat?: boolean;
  tokenBudget?: number;
  runtimeSettings?: ContextEngineRuntimeSettings;
  runtimeContext?: ContextEngineRuntimeContext;
}

export type MemoryCitationsMode = 'auto' | 'on' | 'off' | string;

export interface AssembleParams extends SessionParams {
  messages: AgentMessage[];
  tokenBudget?: number;
  availableTools?: Set<string>;
  citationsMode?: MemoryCitationsMode;
  model?: string;
  prompt?: string;
  runtimeSettings?: ContextEngineRuntimeSettings;
}
export type PromptAuthority = 'assembled' | 'preassembly_may_overflow';
export interface AssembleResult {
  messages: AgentMessage[];
  estimatedTokens: number;
  promptAuthority?: PromptAuthority;
  systemPromptAddition?: string;
  contextProjection?: { mode: 'per_turn' | 'thread_bootstrap'; epoch?: string; fingerprint?: string };
}

export interface CompactParams extends SessionParams {
  /** E1/E2; removed in E3 (ContextScope passes it for engines of either era) */
  sessionFile?: string;
  agentId?: string;
  sessionTarget?: ContextEngineSessionTarget;
  tokenBudget?: number;
  force?: boolean;
  forceReason?: 'manual' | 'preflight_required';
  preflightCompactionTrigger?: 'tokens' | 'transcript_bytes';
  currentTokenCount?: number;
  compactionTarget?: 'budget' | 'threshold';
  customInstructions?: string;
  runtimeSettings?: ContextEngineRuntimeSettings;
  runtimeContext?: ContextEngineRuntimeContext;
  abortSignal?: AbortSignal;
}
export interface CompactResult {
  ok: boolean;
  compacted: boolean;
  reason?: string;
  result?: {
    summary?: string;
    firstKeptEntryId?: string;
    tokensBefore: number;
    tokensAfter?: number;
    details?: unknown;
    /** successor session id when the runtime rotated the transcript */
    sessionId?: string;
    /** E2 successor transcript path (deprecated in E3) */
    sessionFile?: string;
    sessionTarget?: ContextEngineSessionTarget;
  };
}

export type SubagentContextMode = 'isolated' | 'fork';
export interface PrepareSubagentSpawnParams {
  parentSessionKey: string;
  childSessionKey: string;
  contextMode?: SubagentContextMode;
  parentSessionId?: string;
  parentSessionFile?: string;
  childSessionId?: string;
  childSessionFile?: string;
  ttlMs?: number;
}
export interface SubagentSpawnPreparation {
  rollback: () => void | Promise<void>;
}
export type SubagentEndReason = 'deleted' | 'completed' | 'swept' | 'released';
export interface SubagentEndedParams {
  childSessionKey: string;
  reason: SubagentEndReason;
}

export interface CommitTurnParams extends SessionParams {
  advancementKey: string;
  admission: unknown;
  terminal: unknown;
  messages: AgentMessage[];
  sessionTarget?: ContextEngineSessionTarget;
  runtimeSettings?: ContextEngineRuntimeSettings;
  runtimeContext?: ContextEngineRuntimeContext;
  isHeartbeat?: boolean;
}

export interface ContextEngine {
  readonly info: ContextEngineInfo;
  ingest(params: IngestParams): Promise<IngestResult>;
  assemble(params: AssembleParams): Promise<AssembleResult>;
  compact(params: CompactParams): Promise<CompactResult>;
  bootstrap?(params: BootstrapParams): Promise<BootstrapResult>;
  maintain?(params: MaintainParams): Promise<ContextEngineMaintenanceResult>;
  ingestBatch?(params: IngestBatchParams): Promise<IngestBatchResult>;
  afterTurn?(params: AfterTurnParams): Promise<void>;
  prepareSubagentSpawn?(params: PrepareSubagentSpawnParams): Promise<SubagentSpawnPreparation | undefined>;
  onSubagentEnded?(params: SubagentEndedParams): Promise<void>;
  commitTurn?(params: CommitTurnParams): Promise<{ status: 'committed' | 'duplicate' }>;
  dispose?(): Promise<void>;
}

/** Lifecycle methods the quarantine proxy guards (behaviour §4.1). */
export const GUARDED_METHODS = [
  'bootstrap',
  'maintain',
  'ingest',
  'ingestBatch',
  'afterTurn',
  'assemble',
  'compact',
  'prepareSubagentSpawn',
  'onSubagentEnded',
  'commitTurn',
] as const;
export type GuardedMethod = (typeof GUARDED_METHODS)[number];

export interface ContextEngineFactoryContext {
  config?: OpenClawConfig;
  agentDir?: string;
  workspaceDir?: string;
}
export type ContextEngineFactory = (ctx: ContextEngineFactoryContext) => ContextEngine | Promise<ContextEngine>;

/** The slice of openclaw.json the runtime reads (open record: everything else is preserved untouched). */
export interface OpenClawConfig {
  plugins?: {
    enabled?: boolean;
    allow?: string[];
    deny?: string[];
    load?: { paths?: string[] };
    slots?: { contextEngine?: string; memory?: string; [slot: string]: unknown };
    entries?: Record<string, { enabled?: boolean; config?: Record<string, unknown>; hooks?: unknown }>;
    installs?: unknown;
    [k: string]: unknown;
  };
  agents?: {
    defaults?: {
      compaction?: {
        enabled?: boolean;
        mode?: 'default' | 'safeguard';
        reserveTokens?: number;
        keepRecentTokens?: number;
        reserveTokensFloor?: number;
        [k: string]: unknown;
      };
      [k: string]: unknown;
    };
    [k: string]: unknown;
  };
  [k: string]: unknown;
}

/** Quarantine record (behaviour §4.4). */
export interface ContextEngineQuarantine {
  engineId: string;
  owner?: string;
  operation: string;
  reason: string;
  failedAt: Date;
}

export type ContextEngineOwner = 'core' | 'public-sdk' | `plugin:${string}` | string;
export type ContextEngineLifecycle = 'runtime' | 'readOnlyDiscovery';

export interface Logger {
  debug(message: string, ...rest: unknown[]): void;
  info(message: string, ...rest: unknown[]): void;
  warn(message: string, ...rest: unknown[]): void;
  error(message: string, ...rest: unknown[]): void;
}

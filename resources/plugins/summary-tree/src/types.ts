// The subset of OpenClaw's plugin and ContextEngine types this plugin uses. OpenClaw's SDK exports these only as
// types, so a standalone plugin declares the shapes it relies on instead of depending on the openclaw package.

// ---- Messages (pi-ai / agent-core shapes) -------------------------------------------------------------------

export interface TextContent {
  type: 'text';
  text: string;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}
export interface ThinkingContent {
  type: 'thinking';
  thinking: string;
}
export interface ToolCall {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export type ContentBlock = TextContent | ImageContent | ThinkingContent | ToolCall;

/**
 * One AgentMessage. Roles beyond user/assistant/toolResult (bashExecution, custom, branchSummary,
 * compactionSummary) are carried through untouched, so the shape stays open.
 */
export interface AgentMessage {
  role: string;
  content?: string | ContentBlock[];
  timestamp?: number | string;
  toolCallId?: string;
  toolName?: string;
  summary?: string;
  command?: string;
  output?: string;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

// ---- Engine contract ------------------------------------------------------------------------------------------

export interface LlmCompleteParams {
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  model?: string;
  maxTokens?: number;
  temperature?: number;
  systemPrompt?: string;
  signal?: AbortSignal;
  purpose?: string;
}
export interface LlmCompleteResult {
  text: string;
  provider?: string;
  model?: string;
  usage?: Record<string, unknown>;
}
export interface LlmCapability {
  complete(params: LlmCompleteParams): Promise<LlmCompleteResult>;
}

export interface RuntimeContext {
  tokenBudget?: number;
  currentTokenCount?: number;
  llm?: LlmCapability;
  [key: string]: unknown;
}

export interface ContextEngineInfo {
  id: string;
  name: string;
  version?: string;
  ownsCompaction?: boolean;
  turnMaintenanceMode?: 'foreground' | 'background';
}

interface SessionParams {
  sessionId: string;
  sessionKey?: string;
}

export interface BootstrapParams extends SessionParams {
  sessionFile: string;
  runtimeContext?: RuntimeContext;
}
export interface BootstrapResult {
  bootstrapped: boolean;
  importedMessages?: number;
  reason?: string;
}

export interface MaintainParams extends SessionParams {
  sessionFile: string;
  reason?: string;
}
export interface MaintainResult {
  changed: boolean;
  bytesFreed: number;
  rewrittenEntries: number;
  reason?: string;
}

export interface IngestParams extends SessionParams {
  message: AgentMessage;
  isHeartbeat?: boolean;
}
export interface IngestBatchParams extends SessionParams {
  messages: AgentMessage[];
  isHeartbeat?: boolean;
}

export interface AfterTurnParams extends SessionParams {
  sessionFile?: string;
  messages: AgentMessage[];
  prePromptMessageCount: number;
  isHeartbeat?: boolean;
  tokenBudget?: number;
  runtimeContext?: RuntimeContext;
}

export interface AssembleParams extends SessionParams {
  messages: AgentMessage[];
  tokenBudget?: number;
  model?: string;
  prompt?: string;
}
export interface AssembleResult {
  messages: AgentMessage[];
  estimatedTokens: number;
  promptAuthority?: 'assembled' | 'preassembly_may_overflow';
  systemPromptAddition?: string;
}

export interface CompactParams extends SessionParams {
  sessionFile?: string;
  tokenBudget?: number;
  force?: boolean;
  currentTokenCount?: number;
  customInstructions?: string;
  runtimeContext?: RuntimeContext;
  abortSignal?: AbortSignal;
}
export interface CompactResult {
  ok: boolean;
  compacted: boolean;
  reason?: string;
  result?: {
    summary?: string;
    tokensBefore: number;
    tokensAfter?: number;
    details?: unknown;
  };
}

export interface PrepareSubagentSpawnParams {
  parentSessionKey: string;
  childSessionKey: string;
  contextMode?: 'isolated' | 'fork';
  parentSessionId?: string;
  childSessionId?: string;
}
export interface SubagentSpawnPreparation {
  rollback: () => void | Promise<void>;
}
export interface SubagentEndedParams {
  childSessionKey: string;
  reason: 'deleted' | 'completed' | 'swept' | 'released';
}

export interface ContextEngine {
  readonly info: ContextEngineInfo;
  bootstrap(params: BootstrapParams): Promise<BootstrapResult>;
  maintain(params: MaintainParams): Promise<MaintainResult>;
  ingest(params: IngestParams): Promise<{ ingested: boolean }>;
  ingestBatch(params: IngestBatchParams): Promise<{ ingestedCount: number }>;
  afterTurn(params: AfterTurnParams): Promise<void>;
  assemble(params: AssembleParams): Promise<AssembleResult>;
  compact(params: CompactParams): Promise<CompactResult>;
  prepareSubagentSpawn(params: PrepareSubagentSpawnParams): Promise<SubagentSpawnPreparation | undefined>;
  onSubagentEnded(params: SubagentEndedParams): Promise<void>;
  dispose(): Promise<void>;
}

// ---- Plugin API ----------------------------------------------------------------------------------------------

export interface PluginLogger {
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface ContextEngineFactoryContext {
  config?: unknown;
  agentDir?: string;
  workspaceDir?: string;
}

export interface OpenClawPluginApi {
  id?: string;
  registrationMode?: string;
  pluginConfig?: Record<string, unknown>;
  logger: PluginLogger;
  resolvePath?(input: string): string;
  runtime?: { llm?: LlmCapability };
  registerContextEngine(
    id: string,
    factory: (ctx?: ContextEngineFactoryContext) => ContextEngine | Promise<ContextEngine>,
  ): void;
}

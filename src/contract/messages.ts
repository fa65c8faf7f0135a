/**
 * AgentMessage and content-block shapes, as OpenClaw's pi-ai core and agent harness define them (behaviour §11.2).
 * These are the messages engines receive and return, and what session transcripts persist.
 */

export interface TextContent {
  type: 'text';
  text: string;
  textSignature?: string;
}

export interface ThinkingContent {
  type: 'thinking';
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

export interface ImageContent {
  type: 'image';
  /** base64 data */
  data: string;
  mimeType: string;
}

export interface ToolCall {
  type: 'toolCall';
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
}

export type ContentBlock = TextContent | ThinkingContent | ImageContent | ToolCall;

export interface UsageCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export type ContextUsage = { state: 'available'; promptTokens: number; totalTokens: number } | { state: 'unavailable' };

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost?: UsageCost;
  contextUsage?: ContextUsage;
}

export type StopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted';

export interface UserMessage {
  role: 'user';
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
  /** set by convertToLlm on user messages synthesised from summaries */
  synthetic?: boolean;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

export interface AssistantMessage {
  role: 'assistant';
  content: (TextContent | ThinkingContent | ToolCall)[];
  api?: string;
  provider?: string;
  model?: string;
  usage?: Usage;
  stopReason?: StopReason;
  errorMessage?: string;
  timestamp: number;
  responseModel?: string;
  responseId?: string;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

export interface ToolResultMessage {
  role: 'toolResult';
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  /** never sent to the LLM */
  details?: unknown;
  isError: boolean;
  timestamp: number;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

export interface BashExecutionMessage {
  role: 'bashExecution';
  command: string;
  output: string;
  exitCode: number | null;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  timestamp: number;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

export interface CustomMessage {
  role: 'custom';
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
  excludeFromContext?: boolean;
  [extra: string]: unknown;
}

export interface BranchSummaryMessage {
  role: 'branchSummary';
  summary: string;
  fromId: string;
  timestamp: number;
  [extra: string]: unknown;
}

export interface CompactionSummaryMessage {
  role: 'compactionSummary';
  summary: string;
  tokensBefore: number;
  tokensAfter?: number;
  firstKeptEntryId?: string;
  details?: unknown;
  timestamp: number | string;
  [extra: string]: unknown;
}

export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

export type AgentMessageRole = AgentMessage['role'];

/** Every role an AgentMessage can have. */
export const AGENT_MESSAGE_ROLES: readonly AgentMessageRole[] = [
  'user',
  'assistant',
  'toolResult',
  'bashExecution',
  'custom',
  'branchSummary',
  'compactionSummary',
];

/**
 * The customType of OpenClaw's runtime-context carriers (`OPENCLAW_RUNTIME_CONTEXT_CUSTOM_TYPE` in 2026.7.35 and
 * 2026.9.6; their `details.source` is "openclaw-runtime-context", with a hyphen).
 */
export const RUNTIME_CONTEXT_CUSTOM_TYPE = 'openclaw.runtime-context';

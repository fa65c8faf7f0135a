/**
 * The two sanitize steps of `sanitizeSessionHistory` (behaviour §3.2 step 1) that change what the engine receives and
 * how the context is measured, the same in openclaw@2026.7.35 (dist attempt.model-diagnostic-events-*.js) and
 * 2026.9.6 (builtin-openclaw-*.mjs): tool-result `details` are stripped (`stripToolResultDetails`; they are never
 * sent), and assistant messages older than the latest compaction summary get zero usage
 * (`stripStaleAssistantUsageBeforeLatestCompaction`: their usage describes the uncompacted context) — older by
 * timestamp when both have one, else by position. Before them, tool-call ids are rewritten in strict mode when the
 * run's model asks for it under the release's policy (sanitizeToolCallIds.ts): the caller says so per call (a replay
 * lane decides per turn from the model the turn called); by default, from the latest assistant message that names a
 * called model (OpenClaw-written ones, provider `openclaw`, name none). Other provider-specific steps (thinking
 * signatures, images) are not reproduced.
 *
 * Messages are treated as immutable: a changed message is a copy, and the same input object always gets the same
 * copy back, so consumers keyed by object identity keep working.
 */
import type { AgentMessage, AssistantMessage, Usage } from '../../contract';
import { parseSessionTimestampMs } from '../../transcripts';
import { rewritesToolCallIds, ToolCallIdSanitizer, type CalledModel } from './sanitizeToolCallIds';

const ZERO_USAGE: Usage = Object.freeze({
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 }),
}) as Usage;

function timestampMs(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string') return parseSessionTimestampMs(value) ?? null;
  return null;
}

/** The model the latest assistant message that OpenClaw did not write itself (provider `openclaw`) called. */
export function latestCalledModel(messages: readonly AgentMessage[]): CalledModel | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== 'assistant' || message.provider === 'openclaw') continue;
    if (typeof message.api === 'string' || typeof message.provider === 'string')
      return {
        ...(typeof message.provider === 'string' ? { provider: message.provider } : {}),
        ...(typeof message.api === 'string' ? { api: message.api } : {}),
      };
  }
  return undefined;
}

export class HistorySanitizer {
  private readonly withoutDetails = new WeakMap<object, AgentMessage>();
  private readonly zeroed = new WeakMap<object, AgentMessage>();
  private readonly idsRewritten = new ToolCallIdSanitizer();

  /** `zeroStaleUsage: false` keeps only the steps that do not depend on the turn (ids, details) */
  constructor(private readonly options: { zeroStaleUsage?: boolean } = {}) {}

  /**
   * `messages` sanitized; unchanged messages are the same objects (the array itself when nothing changed).
   * `rewriteToolCallIds`: whether this run's model gets the strict id rewrite (default: the latest called model's, as
   * 2026.6+ decides).
   */
  sanitize(
    input: readonly AgentMessage[],
    rewriteToolCallIds: boolean = rewritesToolCallIds(latestCalledModel(input)),
  ): readonly AgentMessage[] {
    const messages = rewriteToolCallIds ? this.idsRewritten.sanitize(input) : input;
    let latest = -1;
    if (this.options.zeroStaleUsage !== false)
      for (let i = messages.length - 1; i >= 0; i--) {
        if (messages[i]!.role === 'compactionSummary') {
          latest = i;
          break;
        }
      }
    const boundaryMs = latest >= 0 ? timestampMs((messages[latest] as { timestamp?: unknown }).timestamp) : null;
    let out: AgentMessage[] | undefined;
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i]!;
      let next = message;
      if (message.role === 'toolResult' && 'details' in message) next = this.stripDetails(message);
      else if (latest >= 0 && message.role === 'assistant' && message.usage && typeof message.usage === 'object') {
        const ms = timestampMs(message.timestamp);
        const stale = boundaryMs !== null && ms !== null ? ms <= boundaryMs : i < latest;
        if (stale) next = this.zeroUsage(message);
      }
      if (next !== message) (out ??= messages.slice())[i] = next;
    }
    return out ?? messages;
  }

  private stripDetails(message: AgentMessage): AgentMessage {
    let copy = this.withoutDetails.get(message);
    if (!copy) {
      const { details: _details, ...rest } = message as AgentMessage & { details?: unknown };
      copy = rest as AgentMessage;
      this.withoutDetails.set(message, copy);
    }
    return copy;
  }

  private zeroUsage(message: AssistantMessage): AgentMessage {
    let copy = this.zeroed.get(message);
    if (!copy) {
      copy = { ...message, usage: ZERO_USAGE };
      this.zeroed.set(message, copy);
    }
    return copy;
  }
}

/**
 * The messages as OpenClaw hands them to every engine whatever the turn (tool-call ids rewritten when
 * `rewriteToolCallIds`, by default for the latest called model; tool-result details stripped): what a recording
 * shows for a transcript message.
 */
export function sanitizeStoredMessages(
  messages: readonly AgentMessage[],
  rewriteToolCallIds?: boolean,
): readonly AgentMessage[] {
  return new HistorySanitizer({ zeroStaleUsage: false }).sanitize(messages, rewriteToolCallIds);
}

/**
 * What the provider recorded about each model request of a turn: the prompt size it counted (its `usage`), how the
 * request ended (`stopReason`, `errorMessage`) and which model served it. A turn's requests are read per
 * overflow-recovery attempt: the first request of the turn, then the first one after each compaction OpenClaw made
 * to recover from a recorded overflow error (a compaction entry after an assistant error that is a context
 * overflow, in the same turn). Assistant messages OpenClaw wrote itself (provider `openclaw`) are no requests.
 */
import type { AssistantMessage, SessionEntry } from '../../contract';
import { recordedOverflowError } from './contextOverflowError';
import type { SessionTurn, SplitSession } from './sessionTurns';

export interface RecordedRequest {
  /** the entry of the assistant message that answered the request */
  entryId: string;
  provider: string | null;
  model: string | null;
  api: string | null;
  stopReason: string | null;
  /** the prompt as the provider counted it: `contextUsage.promptTokens`, else input + cacheRead + cacheWrite */
  promptTokens?: number;
  outputTokens?: number;
  /** the recorded error, when OpenClaw would classify it as a context overflow */
  overflowError?: string;
  /** any recorded error (overflow or not) */
  error?: string;
}

const finiteOrZero = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);

/**
 * The prompt tokens the provider reported for a request, as OpenClaw's `isContextOverflow` reads them (2026.9.6
 * @openclaw/ai `resolveContextInputTokens`): `contextUsage.promptTokens` when available, nothing when the provider
 * said it is unavailable, else `input + cacheRead + cacheWrite`. Undefined when the provider reported none.
 */
export function providerPromptTokens(message: AssistantMessage): number | undefined {
  const usage = message.usage;
  if (!usage || typeof usage !== 'object') return undefined;
  const context = usage.contextUsage;
  if (context?.state === 'available') {
    const prompt = finiteOrZero(context.promptTokens);
    return prompt > 0 ? Math.round(prompt) : undefined;
  }
  if (context?.state === 'unavailable') return undefined;
  const total = finiteOrZero(usage.input) + finiteOrZero(usage.cacheRead) + finiteOrZero(usage.cacheWrite);
  return total > 0 ? Math.round(total) : undefined;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function assistantOf(entry: SessionEntry): AssistantMessage | undefined {
  if (entry.type !== 'message' || entry.message?.role !== 'assistant') return undefined;
  const message = entry.message as AssistantMessage;
  return message.provider === 'openclaw' ? undefined : message;
}

function requestOf(entryId: string, message: AssistantMessage): RecordedRequest {
  const promptTokens = providerPromptTokens(message);
  const overflowError = recordedOverflowError(message);
  const error = message.stopReason === 'error' ? (text(message.errorMessage) ?? 'error') : undefined;
  const output = finiteOrZero(message.usage?.output);
  return {
    entryId,
    provider: text(message.provider),
    model: text(message.model),
    api: text(message.api),
    stopReason: text(message.stopReason),
    ...(promptTokens !== undefined ? { promptTokens } : {}),
    ...(message.usage ? { outputTokens: output } : {}),
    ...(overflowError !== undefined ? { overflowError } : {}),
    ...(error !== undefined ? { error } : {}),
  };
}

interface TurnRequests {
  requests: RecordedRequest[];
  /** compaction entries of the turn that recovered from a recorded overflow */
  recoveries: string[];
}

const byTurn = new WeakMap<SessionTurn, TurnRequests>();

function readTurn(turn: SessionTurn): TurnRequests {
  const known = byTurn.get(turn);
  if (known) return known;
  const requests: RecordedRequest[] = [];
  const recoveries: string[] = [];
  let last: AssistantMessage | undefined;
  for (const entry of turn.entries) {
    if (entry.type === 'compaction') {
      if (last && recordedOverflowError(last) !== undefined) recoveries.push(entry.id);
      last = undefined;
      continue;
    }
    const assistant = assistantOf(entry);
    if (!assistant) continue;
    if (requests.length === recoveries.length) requests.push(requestOf(entry.id, assistant));
    last = assistant;
  }
  const read = { requests, recoveries };
  byTurn.set(turn, read);
  return read;
}

/** The turn's requests by recovery attempt: [0] the first, [n] the first after the n-th recorded recovery. */
export function recordedRequests(turn: SessionTurn): readonly RecordedRequest[] {
  return readTurn(turn).requests;
}

/** Ids of the recorded compaction entries that were overflow recoveries (of the turn they are recorded in). */
export function recoveryCompactionIds(split: SplitSession): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const turn of split.turns) for (const id of readTurn(turn).recoveries) ids.add(id);
  return ids;
}

/** `provider/model` of a request (the key the measured ratio is kept under). */
export function modelKeyOf(request: { provider: string | null; model: string | null }): string {
  return `${request.provider ?? 'unknown'}/${request.model ?? 'unknown'}`;
}

/**
 * Providers that truncate a prompt larger than the model's window without an error (the local models Ollama
 * serves): OpenClaw's @openclaw/ai `isContextOverflow` notes Ollama "may truncate input silently", and no recorded
 * request of theirs says it overflowed.
 */
export function truncatesSilently(request: { provider: string | null; api: string | null }): boolean {
  return request.provider === 'ollama' || request.api === 'ollama';
}

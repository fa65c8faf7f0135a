/**
 * The model each recorded turn actually called, for the decisions OpenClaw keys on the run's model (the strict
 * tool-call id rewrite of `sanitizeSessionHistory`: `resolveTranscriptPolicy({provider, modelApi: model.api})`).
 * OpenClaw takes them from the run's model, never from the history, so a turn's model is, first found:
 * 1. the turn's own assistant messages (the reply the model wrote: `provider`, `api`, `model`);
 * 2. the latest `model-snapshot` custom entry before the turn's user message (every release since 2026.3 appends
 *    one when the run's provider/api/model differs from the last one: `data: {timestamp, provider, modelApi,
 *    modelId}`, 5.2 compaction-successor-transcript-*.js `appendModelSnapshot`; it is written while the history is
 *    sanitized, before the prompt is appended);
 * 3. the latest assistant message before the turn.
 * Assistant messages OpenClaw itself wrote (provider `openclaw`: delivery mirrors, injected replies) name no model
 * that was called and are skipped everywhere.
 */
import type { SessionEntry } from '../../contract';
import { isRecord } from '../../common/guards';
import type { SessionTurn } from './sessionTurns';

export interface TurnModel {
  provider?: string;
  api?: string;
  modelId?: string;
  /** where it was read: the turn's own reply, a model-snapshot entry, or an earlier reply */
  source: 'reply' | 'model-snapshot' | 'earlier-reply';
}

/** The provider id of messages OpenClaw writes itself. */
export const OPENCLAW_WRITTEN_PROVIDER = 'openclaw';

const MODEL_SNAPSHOT = 'model-snapshot';

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

/** The called model an assistant message names, or undefined (not an assistant, OpenClaw-written, no model). */
export function calledModelOf(entry: SessionEntry): Omit<TurnModel, 'source'> | undefined {
  if (entry.type !== 'message' || entry.message.role !== 'assistant') return undefined;
  const { provider, api, model } = entry.message as { provider?: unknown; api?: unknown; model?: unknown };
  if (provider === OPENCLAW_WRITTEN_PROVIDER) return undefined;
  const found = { provider: text(provider), api: text(api), modelId: text(model) };
  if (!found.provider && !found.api) return undefined;
  return withoutUndefined(found);
}

function snapshotOf(entry: SessionEntry): Omit<TurnModel, 'source'> | undefined {
  if (entry.type !== 'custom' || entry.customType !== MODEL_SNAPSHOT || !isRecord(entry.data)) return undefined;
  const found = {
    provider: text(entry.data.provider),
    api: text(entry.data.modelApi),
    modelId: text(entry.data.modelId),
  };
  if (!found.provider && !found.api) return undefined;
  return withoutUndefined(found);
}

function withoutUndefined<T extends Record<string, string | undefined>>(value: T): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value;
}

/** The model of every turn of `path` (aligned with `turns`; undefined where nothing names one). */
export function turnModelsOf(path: readonly SessionEntry[], turns: readonly SessionTurn[]): (TurnModel | undefined)[] {
  const before = new Map<string, { snapshot?: Omit<TurnModel, 'source'>; reply?: Omit<TurnModel, 'source'> }>();
  let snapshot: Omit<TurnModel, 'source'> | undefined;
  let reply: Omit<TurnModel, 'source'> | undefined;
  const userIds = new Set(turns.map((t) => t.userEntry.id));
  for (const entry of path) {
    if (userIds.has(entry.id)) before.set(entry.id, { snapshot, reply });
    snapshot = snapshotOf(entry) ?? snapshot;
    reply = calledModelOf(entry) ?? reply;
  }
  return turns.map((turn) => {
    for (const entry of turn.entries) {
      const own = calledModelOf(entry);
      if (own) return { ...own, source: 'reply' };
    }
    const earlier = before.get(turn.userEntry.id);
    if (earlier?.snapshot) return { ...earlier.snapshot, source: 'model-snapshot' };
    if (earlier?.reply) return { ...earlier.reply, source: 'earlier-reply' };
    return undefined;
  });
}

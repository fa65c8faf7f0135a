/**
 * The Config view's draft: what the person has changed, kept as the desired state of each setting (so a value
 * set back to what is saved is no change at all), and the change list the bridge applies (`config.preview`,
 * `config.save`, `config.tryLanes`). Pure; no DOM.
 */
import type { ConfigChangeInfo, ConfigReadResponse } from '../../../src/bridge/methods';

export interface ConfigDraft {
  /** slot → the engine / memory plugin chosen */
  slots: Record<string, string>;
  /** plugin id → enabled */
  enabled: Record<string, boolean>;
  /** plugin id → its whole config as the form holds it */
  pluginConfig: Record<string, Record<string, unknown>>;
  /** agents.defaults.compaction keys → value (null: remove, OpenClaw's default applies) */
  compaction: Record<string, unknown>;
  /** agents.defaults.contextTokens; null removes it; undefined: unchanged */
  contextWindow?: number | null;
  /** plugins to uninstall */
  uninstall: string[];
}

export const EMPTY_DRAFT: ConfigDraft = { slots: {}, enabled: {}, pluginConfig: {}, compaction: {}, uninstall: [] };

export const SLOT_DEFAULTS: Readonly<Record<string, string>> = { contextEngine: 'legacy', memory: 'memory-core' };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function valueAt(value: unknown, path: readonly string[]): unknown {
  let node = value;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return node;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/** The object without undefined values, recursively (what a cleared form field leaves behind). */
export function withoutUndefined(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[key] = isRecord(v) ? withoutUndefined(v) : v;
  }
  return out;
}

export function savedSlot(read: ConfigReadResponse, slot: string): string {
  const value = valueAt(read.effective, ['plugins', 'slots', slot]);
  return typeof value === 'string' && value.trim() ? value.trim() : (SLOT_DEFAULTS[slot] ?? 'none');
}

export function savedPluginConfig(read: ConfigReadResponse, pluginId: string): Record<string, unknown> {
  const value = valueAt(read.effective, ['plugins', 'entries', pluginId, 'config']);
  return isRecord(value) ? value : {};
}

export const COMPACTION_KEYS = ['mode', 'enabled', 'reserveTokens', 'keepRecentTokens', 'reserveTokensFloor'] as const;

/** The compaction settings and the context window as the form shows them (saved values, draft over them). */
export function compactionFormData(read: ConfigReadResponse, draft: ConfigDraft): Record<string, unknown> {
  const saved = valueAt(read.effective, ['agents', 'defaults', 'compaction']);
  const out: Record<string, unknown> = {};
  for (const key of COMPACTION_KEYS) {
    const value = key in draft.compaction ? draft.compaction[key] : isRecord(saved) ? saved[key] : undefined;
    if (value !== null && value !== undefined) out[key] = value;
  }
  const window =
    draft.contextWindow !== undefined
      ? draft.contextWindow
      : valueAt(read.effective, ['agents', 'defaults', 'contextTokens']);
  if (typeof window === 'number') out.contextTokens = window;
  return out;
}

/** The form's compaction data back into the draft: only keys that differ from what is saved stay in it. */
export function applyCompactionForm(
  read: ConfigReadResponse,
  draft: ConfigDraft,
  data: Record<string, unknown>,
): ConfigDraft {
  const saved = valueAt(read.effective, ['agents', 'defaults', 'compaction']);
  const compaction: Record<string, unknown> = {};
  for (const key of COMPACTION_KEYS) {
    const before = isRecord(saved) ? saved[key] : undefined;
    const after = data[key];
    if (!sameValue(before, after)) compaction[key] = after === undefined ? null : after;
  }
  const savedWindow = valueAt(read.effective, ['agents', 'defaults', 'contextTokens']);
  const window = typeof data.contextTokens === 'number' ? data.contextTokens : undefined;
  const { contextWindow: _drop, ...rest } = draft;
  return {
    ...rest,
    compaction,
    ...(sameValue(savedWindow, window) ? {} : { contextWindow: window ?? null }),
  };
}

/** The draft with entries equal to the saved config dropped (setting a value back is no change). */
export function normalizeDraft(read: ConfigReadResponse, draft: ConfigDraft): ConfigDraft {
  const slots = Object.fromEntries(Object.entries(draft.slots).filter(([slot, v]) => v !== savedSlot(read, slot)));
  const enabled = Object.fromEntries(
    Object.entries(draft.enabled).filter(([id, v]) => v !== (read.plugins.find((p) => p.id === id)?.enabled ?? true)),
  );
  const pluginConfig = Object.fromEntries(
    Object.entries(draft.pluginConfig).filter(([id, v]) => !sameValue(v, savedPluginConfig(read, id))),
  );
  return { ...draft, slots, enabled, pluginConfig };
}

/** The bridge change list of a draft, in a stable order (uninstalls last, so they see the other changes). */
export function draftChanges(draft: ConfigDraft): ConfigChangeInfo[] {
  const changes: ConfigChangeInfo[] = [];
  for (const [slot, value] of Object.entries(draft.slots)) changes.push({ op: 'selectSlot', slot, value });
  for (const [pluginId, enabled] of Object.entries(draft.enabled))
    changes.push({ op: 'setEnabled', pluginId, enabled });
  for (const [pluginId, config] of Object.entries(draft.pluginConfig))
    changes.push({ op: 'setPluginConfig', pluginId, config });
  if (Object.keys(draft.compaction).length > 0) changes.push({ op: 'setCompaction', settings: draft.compaction });
  if (draft.contextWindow !== undefined) changes.push({ op: 'setContextWindow', tokens: draft.contextWindow });
  for (const pluginId of draft.uninstall) changes.push({ op: 'uninstall', pluginId });
  return changes;
}

/** How many settings the draft changes (the dirty marker's count). */
export function draftSize(draft: ConfigDraft): number {
  return (
    Object.keys(draft.slots).length +
    Object.keys(draft.enabled).length +
    Object.keys(draft.pluginConfig).length +
    Object.keys(draft.compaction).length +
    (draft.contextWindow !== undefined ? 1 : 0) +
    draft.uninstall.length
  );
}

/** `plugins.entries.recent-window.config.budgetShare` for a path of keys. */
export function formatPath(path: readonly string[]): string {
  if (path.length === 0) return '(the whole config)';
  return path
    .map((key, i) => (/^[^.[\]\s"']+$/.test(key) ? `${i ? '.' : ''}${key}` : `[${JSON.stringify(key)}]`))
    .join('');
}

/** A value for a person: strings quoted, objects as compact JSON, absent as "(unset)". */
export function formatValue(value: unknown): string {
  if (value === undefined) return '(unset)';
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/**
 * The changes a person makes to openclaw.json, as OpenClaw has them, turned into path-level edits: select a slot
 * (applyExclusiveSlotSelection: the new owner is enabled, the previous one disabled unless it owns another slot),
 * enable/disable a plugin entry, replace a plugin's config (as the smallest set of edits, so untouched fields keep
 * their comments), agents.defaults.compaction and the context window, uninstall (resetPluginSlotReferences: every
 * slot naming the plugin goes back to its default). Plugin folders are never touched.
 */
import { resolve } from 'node:path';
import { isRecord } from '../common';
import type { DiscoveredPlugin } from '../plugins';
import { formatConfigPath, type ConfigPath } from './configPath';
import { sameValue, type ValueEdit } from './json5Edit';
import { knownEngines, SLOT_DEFAULTS } from './validateConfig';

export type ConfigChange =
  | { op: 'set'; path: string[]; value: unknown }
  | { op: 'unset'; path: string[] }
  /** plugins.slots.<slot> (contextEngine, memory, memory.<role>) */
  | { op: 'selectSlot'; slot: string; value: string }
  | { op: 'setEnabled'; pluginId: string; enabled: boolean }
  /** the whole plugins.entries.<id>.config; fields left out go back to their defaults */
  | { op: 'setPluginConfig'; pluginId: string; config: Record<string, unknown> }
  | { op: 'uninstall'; pluginId: string }
  /** agents.defaults.compaction.<key>; null removes the key (OpenClaw's default applies) */
  | { op: 'setCompaction'; settings: Record<string, unknown> }
  /** agents.defaults.contextTokens; null removes it */
  | { op: 'setContextWindow'; tokens: number | null };

export interface OperationState {
  /** the effective config ($include merged) the change applies to */
  config: unknown;
  plugins: readonly DiscoveredPlugin[];
  engines?: Readonly<Record<string, readonly string[]>>;
  /** for plugins.load.paths entries relative to the config */
  baseDir: string;
}

export interface ExpandedChange {
  edits: ValueEdit[];
  /** what else happened, for a person (e.g. "summary-tree was disabled: it no longer owns a slot") */
  notes: string[];
}

function valueAt(value: unknown, path: ConfigPath): unknown {
  let node = value;
  for (const key of path) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isRecord(node)) node = node[key];
    else return undefined;
  }
  return node;
}

/** The edits that turn `before` at `path` into `after`, key by key, so what did not change is not rewritten. */
export function diffEdits(path: string[], before: unknown, after: unknown): ValueEdit[] {
  if (after === undefined) return before === undefined ? [] : [{ op: 'unset', path }];
  if (isRecord(before) && isRecord(after)) {
    const edits: ValueEdit[] = [];
    for (const key of Object.keys(before)) if (!(key in after)) edits.push({ op: 'unset', path: [...path, key] });
    for (const [key, value] of Object.entries(after)) edits.push(...diffEdits([...path, key], before[key], value));
    return edits;
  }
  return sameValue(before, after) ? [] : [{ op: 'set', path, value: after }];
}

function entryPath(pluginId: string, ...rest: string[]): string[] {
  return ['plugins', 'entries', pluginId, ...rest];
}

function pluginOf(state: OperationState, pluginId: string): DiscoveredPlugin {
  const plugin = state.plugins.find((p) => p.id === pluginId);
  if (!plugin) {
    const ids = state.plugins.map((p) => p.id);
    throw new OperationError(
      `no plugin "${pluginId}" was found${ids.length ? ` (found: ${ids.join(', ')})` : ''}; check the id or the plugin folders (plugins.load.paths, ~/.openclaw/extensions)`,
    );
  }
  return plugin;
}

export class OperationError extends Error {
  readonly code = 'config_operation_invalid';
  constructor(message: string) {
    super(message);
    this.name = 'OperationError';
  }
}

/** The plugin that a slot value names (a plugin id, or an engine a plugin registers). */
function slotOwner(state: OperationState, slot: string, value: string): string | undefined {
  if (slot === 'contextEngine') {
    return knownEngines(state.plugins, state.engines).find((e) => e.engineId === value)?.pluginId;
  }
  return state.plugins.find((p) => p.id === value && p.kind.includes('memory'))?.id;
}

function slotDefault(slot: string): string {
  if (slot === 'contextEngine') return SLOT_DEFAULTS.contextEngine;
  if (slot === 'memory' || slot === 'memory.recall') return SLOT_DEFAULTS.memory;
  return 'none';
}

function selectSlot(state: OperationState, slot: string, value: string): ExpandedChange {
  if (!/^(contextEngine|memory(\.[\w-]+)?)$/.test(slot)) {
    throw new OperationError(`"${slot}" is not a slot: use contextEngine, memory or memory.<role>`);
  }
  const slots = valueAt(state.config, ['plugins', 'slots']);
  const current = isRecord(slots) && typeof slots[slot] === 'string' ? (slots[slot] as string) : slotDefault(slot);
  const edits: ValueEdit[] = diffEdits(['plugins', 'slots', slot], isRecord(slots) ? slots[slot] : undefined, value);
  const notes: string[] = [];
  const owner = slotOwner(state, slot, value);
  if (owner && valueAt(state.config, entryPath(owner, 'enabled')) === false) {
    edits.push({ op: 'set', path: entryPath(owner, 'enabled'), value: true });
    notes.push(`${owner} is enabled: it owns plugins.slots.${slot} now`);
  }
  const previous = current !== value ? slotOwner(state, slot, current) : undefined;
  if (previous && previous !== owner) {
    const ownsAnother =
      isRecord(slots) &&
      Object.entries(slots).some(
        ([s, v]) => s !== slot && typeof v === 'string' && slotOwner(state, s, v) === previous,
      );
    if (!ownsAnother && valueAt(state.config, entryPath(previous, 'enabled')) !== false) {
      edits.push({ op: 'set', path: entryPath(previous, 'enabled'), value: false });
      notes.push(
        `${previous} is disabled: it owned plugins.slots.${slot} and owns no other slot (as OpenClaw's exclusive slot selection does)`,
      );
    }
  }
  return { edits, notes };
}

function uninstall(state: OperationState, pluginId: string): ExpandedChange {
  const plugin = pluginOf(state, pluginId);
  const edits: ValueEdit[] = [];
  const notes: string[] = [];
  const engines = new Set(
    knownEngines([plugin], state.engines)
      .map((e) => e.engineId)
      .concat(plugin.id),
  );
  const slots = valueAt(state.config, ['plugins', 'slots']);
  if (isRecord(slots)) {
    for (const [slot, value] of Object.entries(slots)) {
      if (typeof value === 'string' && engines.has(value)) {
        edits.push({ op: 'set', path: ['plugins', 'slots', slot], value: slotDefault(slot) });
        notes.push(`plugins.slots.${slot} was "${value}"; it is reset to "${slotDefault(slot)}"`);
      }
    }
  }
  const paths = valueAt(state.config, ['plugins', 'load', 'paths']);
  const linked = Array.isArray(paths)
    ? paths.filter((p) => typeof p === 'string' && resolve(state.baseDir, p) === resolve(plugin.rootDir))
    : [];
  if (linked.length > 0 && Array.isArray(paths)) {
    edits.push({ op: 'set', path: ['plugins', 'load', 'paths'], value: paths.filter((p) => !linked.includes(p)) });
    notes.push(`${plugin.rootDir} is unlinked (removed from plugins.load.paths)`);
  }
  if (
    isRecord(valueAt(state.config, ['plugins', 'installs'])) &&
    valueAt(state.config, ['plugins', 'installs', pluginId]) !== undefined
  )
    edits.push({ op: 'unset', path: ['plugins', 'installs', pluginId] });
  const allow = valueAt(state.config, ['plugins', 'allow']);
  if (Array.isArray(allow) && allow.includes(pluginId))
    edits.push({ op: 'set', path: ['plugins', 'allow'], value: allow.filter((id) => id !== pluginId) });
  // still found in another root (extensions, workspace, bundled): the uninstall marker keeps it from loading
  const stillFound = linked.length === 0 || plugin.origin !== 'config';
  const entry = valueAt(state.config, entryPath(pluginId));
  if (stillFound) edits.push(...diffEdits(entryPath(pluginId), entry, { enabled: false }));
  else if (entry !== undefined) edits.push({ op: 'unset', path: entryPath(pluginId) });
  notes.push(`the plugin's files stay in ${plugin.rootDir}; delete the folder yourself if you want them gone`);
  return { edits, notes };
}

function setCompaction(state: OperationState, settings: Record<string, unknown>): ExpandedChange {
  const base = ['agents', 'defaults', 'compaction'];
  const edits = Object.entries(settings).flatMap(([key, value]) =>
    diffEdits([...base, key], valueAt(state.config, [...base, key]), value === null ? undefined : value),
  );
  return { edits, notes: [] };
}

/** The path-level edits of one change, checked against the discovered plugins. */
export function expandChange(state: OperationState, change: ConfigChange): ExpandedChange {
  switch (change.op) {
    case 'set':
      return { edits: diffEdits(change.path, valueAt(state.config, change.path), change.value), notes: [] };
    case 'unset':
      return {
        edits: valueAt(state.config, change.path) === undefined ? [] : [{ op: 'unset', path: change.path }],
        notes: [],
      };
    case 'selectSlot':
      return selectSlot(state, change.slot, change.value);
    case 'setEnabled': {
      pluginOf(state, change.pluginId);
      const path = entryPath(change.pluginId, 'enabled');
      return { edits: diffEdits(path, valueAt(state.config, path), change.enabled), notes: [] };
    }
    case 'setPluginConfig': {
      pluginOf(state, change.pluginId);
      const path = entryPath(change.pluginId, 'config');
      const before = valueAt(state.config, path);
      const after = Object.keys(change.config).length === 0 && before === undefined ? undefined : change.config;
      return { edits: diffEdits(path, before, after), notes: [] };
    }
    case 'uninstall':
      return uninstall(state, change.pluginId);
    case 'setCompaction':
      return setCompaction(state, change.settings);
    case 'setContextWindow': {
      const path = ['agents', 'defaults', 'contextTokens'];
      return { edits: diffEdits(path, valueAt(state.config, path), change.tokens ?? undefined), notes: [] };
    }
  }
}

/** One line per change for a person: `set plugins.slots.contextEngine = "x"`. */
export function describeEdit(edit: ValueEdit): string {
  return edit.op === 'set'
    ? `set ${formatConfigPath(edit.path)} = ${JSON.stringify(edit.value)}`
    : `remove ${formatConfigPath(edit.path)}`;
}

export { valueAt };

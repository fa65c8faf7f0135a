/**
 * openclaw.json validated as OpenClaw validates it (behaviour §10.4), before anything is written: each
 * `plugins.entries.<id>.config` against that plugin's `configSchema` (ajv, defaults applied, problems as paths),
 * unknown entry/allow/deny ids as warnings, an unknown memory slot as an error (memory-lancedb warns), a
 * context-engine slot that no discovered plugin registers as a warning explaining the fallback to `legacy`, config
 * kept for a disabled plugin as a warning, and the shape of the keys ContextScope edits.
 */
import { isRecord } from '../common';
import type { OpenClawConfig } from '../contract';
import {
  compilePluginConfigSchema,
  findStaleConfigEntries,
  validatePluginConfig,
  type DiscoveredPlugin,
} from '../plugins';
import { formatConfigPath, pointerToPath } from './configPath';
import { OpenClawConfigShape } from './configShape';

export type ConfigIssueSeverity = 'error' | 'warning';

export interface ConfigIssue {
  severity: ConfigIssueSeverity;
  /** stable identifier: config-invalid, shape-invalid, stale-entry, slot-memory-unknown, … */
  code: string;
  /** where in the config (keys) */
  path: string[];
  message: string;
  fix?: string;
  /** the file it is about when that is not openclaw.json itself (an $include, a plugin manifest) */
  file?: string;
}

export interface ValidationContext {
  /** the plugins discovery finds with this config */
  plugins: readonly DiscoveredPlugin[];
  /** engine ids each plugin registers, when known (a doctor run executed them); else a plugin's id stands for its engine */
  engines?: Readonly<Record<string, readonly string[]>>;
}

export const SLOT_DEFAULTS = { contextEngine: 'legacy', memory: 'memory-core' } as const;
/** memory plugins OpenClaw ships: valid slot values without a discovered plugin */
const BUILTIN_MEMORY = new Set(['memory-core', 'none']);

const shape = compilePluginConfigSchema(OpenClawConfigShape as unknown as Record<string, unknown>);

function shapeIssues(config: OpenClawConfig): ConfigIssue[] {
  if (!shape.ok) return [];
  return validatePluginConfig(shape.validate, config).violations.map((v) => ({
    severity: 'error',
    code: 'shape-invalid',
    path: pointerToPath(v.path),
    message: `${formatConfigPath(pointerToPath(v.path))} ${v.message}`,
    fix: 'correct the value (OpenClaw refuses a config of the wrong shape)',
  }));
}

function pluginConfigIssues(config: OpenClawConfig, plugins: readonly DiscoveredPlugin[]): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const entries = config.plugins?.entries;
  for (const plugin of plugins) {
    const entry = isRecord(entries) ? entries[plugin.id] : undefined;
    const raw = isRecord(entry) ? entry.config : undefined;
    // a disabled plugin's config is still checked when there is one (it is kept for when it is enabled again)
    if (!plugin.manifest || (!plugin.enabled && raw === undefined)) continue;
    const compiled = compilePluginConfigSchema(plugin.manifest.configSchema);
    if (!compiled.ok) {
      issues.push({
        severity: 'warning',
        code: 'plugin-schema-invalid',
        path: ['plugins', 'entries', plugin.id],
        message: `plugin "${plugin.id}" has a configSchema that does not compile (${compiled.error}), so its config cannot be checked`,
        fix: 'the plugin must fix its openclaw.plugin.json; run contextscope doctor',
        file: plugin.manifestPath,
      });
      continue;
    }
    if (raw !== undefined && !isRecord(raw)) continue; // the shape check reports it
    const base = ['plugins', 'entries', plugin.id, 'config'];
    for (const v of validatePluginConfig(compiled.validate, raw ?? {}).violations) {
      const path = pointerToPath(v.path, base);
      issues.push({
        severity: 'error',
        code: 'config-invalid',
        path,
        message: `${formatConfigPath(path)} ${v.message} (configSchema of ${plugin.id})`,
        fix: `change it to satisfy ${plugin.id}'s configSchema (${plugin.manifestPath}), or reset it to the default`,
      });
    }
  }
  return issues;
}

function staleIssues(config: OpenClawConfig, plugins: readonly DiscoveredPlugin[]): ConfigIssue[] {
  return findStaleConfigEntries(config, [...plugins]).map(({ key, id }) => {
    const entry = key.startsWith('plugins.entries.');
    return {
      severity: 'warning' as const,
      code: 'stale-entry',
      path: entry ? ['plugins', 'entries', id] : key.split('.'),
      message: `${entry ? key : `${key} lists "${id}", which`} names no discovered plugin: stale config entry ignored`,
      fix: `remove it, or install/link the plugin "${id}" (plugins.load.paths, ~/.openclaw/extensions)`,
    };
  });
}

function disabledWithConfig(config: OpenClawConfig, plugins: readonly DiscoveredPlugin[]): ConfigIssue[] {
  return plugins
    .filter((p) => !p.enabled && config.plugins?.entries?.[p.id]?.config !== undefined)
    .map((p) => ({
      severity: 'warning' as const,
      code: 'disabled-config-kept',
      path: ['plugins', 'entries', p.id, 'config'],
      message: `plugin "${p.id}" is disabled (${p.disabledReason ?? 'disabled'}); its config is kept but not used`,
      fix: `enable it (plugins.entries.${p.id}.enabled: true) or remove the config`,
    }));
}

function memorySlotIssues(config: OpenClawConfig, plugins: readonly DiscoveredPlugin[]): ConfigIssue[] {
  const slots = config.plugins?.slots;
  if (!isRecord(slots)) return [];
  const memoryPlugins = new Set(plugins.filter((p) => p.kind.includes('memory')).map((p) => p.id));
  const issues: ConfigIssue[] = [];
  for (const [slot, value] of Object.entries(slots)) {
    if (slot !== 'memory' && !slot.startsWith('memory.')) continue;
    if (typeof value !== 'string' || BUILTIN_MEMORY.has(value) || memoryPlugins.has(value)) continue;
    const lancedb = value === 'memory-lancedb';
    issues.push({
      severity: lancedb ? 'warning' : 'error',
      code: lancedb ? 'slot-memory-lancedb' : 'slot-memory-unknown',
      path: ['plugins', 'slots', slot],
      message: lancedb
        ? `plugins.slots.${slot} names "memory-lancedb", which is not installed here; OpenClaw warns and keeps the config`
        : `plugins.slots.${slot} names "${value}", which is no memory plugin: OpenClaw refuses this config`,
      fix: `set it to memory-core (the default), none, or the id of an installed memory plugin${memoryPlugins.size ? ` (${[...memoryPlugins].join(', ')})` : ''}`,
    });
  }
  return issues;
}

/** The context-engine ids the discovered plugins register (or, not having run them, stand for). */
export function knownEngines(
  plugins: readonly DiscoveredPlugin[],
  engines?: ValidationContext['engines'],
): { engineId: string; pluginId: string; enabled: boolean }[] {
  return plugins
    .filter((p) => p.kind.includes('context-engine') || engines?.[p.id]?.length)
    .flatMap((p) => (engines?.[p.id] ?? [p.id]).map((engineId) => ({ engineId, pluginId: p.id, enabled: p.enabled })));
}

function contextEngineIssues(config: OpenClawConfig, context: ValidationContext): ConfigIssue[] {
  const slot = config.plugins?.slots?.contextEngine;
  if (typeof slot !== 'string' || slot.trim() === '' || slot.trim() === SLOT_DEFAULTS.contextEngine) return [];
  const id = slot.trim();
  const owners = knownEngines(context.plugins, context.engines).filter((e) => e.engineId === id);
  const path = ['plugins', 'slots', 'contextEngine'];
  if (owners.some((o) => o.enabled)) return [];
  const fallback =
    'OpenClaw accepts this config, but at run time the engine cannot be resolved: it is quarantined (operation "resolve") and every turn runs on the built-in "legacy" engine instead';
  if (owners.length > 0) {
    return [
      {
        severity: 'warning',
        code: 'slot-engine-disabled',
        path,
        message: `plugins.slots.contextEngine names "${id}", whose plugin ${owners[0]!.pluginId} is disabled. ${fallback}`,
        fix: `enable it: plugins.entries.${owners[0]!.pluginId}.enabled: true`,
      },
    ];
  }
  const choices = ['legacy', ...new Set(knownEngines(context.plugins, context.engines).map((e) => e.engineId))];
  return [
    {
      severity: 'warning',
      code: 'slot-engine-unknown',
      path,
      message: `plugins.slots.contextEngine names "${id}", which no discovered plugin registers. ${fallback}`,
      fix: `choose one of ${choices.join(', ')}, or install the plugin that registers "${id}"`,
    },
  ];
}

/** Every problem of `config` (already $include-merged), errors first. */
export function validateOpenClawConfig(config: unknown, context: ValidationContext): ConfigIssue[] {
  if (!isRecord(config)) {
    return [
      {
        severity: 'error',
        code: 'not-an-object',
        path: [],
        message: `the config must be an object, not ${Array.isArray(config) ? 'an array' : typeof config}`,
        fix: 'wrap the settings in { … }',
      },
    ];
  }
  const c = config as OpenClawConfig;
  const issues = [
    ...shapeIssues(c),
    ...pluginConfigIssues(c, context.plugins),
    ...memorySlotIssues(c, context.plugins),
    ...contextEngineIssues(c, context),
    ...staleIssues(c, context.plugins),
    ...disabledWithConfig(c, context.plugins),
  ];
  return [...issues.filter((i) => i.severity === 'error'), ...issues.filter((i) => i.severity === 'warning')];
}

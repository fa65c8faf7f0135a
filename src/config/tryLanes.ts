/**
 * Try before save: the replay lanes of the saved config and of the edited one, side by side. Each lane runs the
 * engine its config's `plugins.slots.contextEngine` resolves to (legacy when no enabled plugin registers it, as
 * OpenClaw falls back), with that config's `plugins.entries.<id>.config` written to a temporary file (never to
 * openclaw.json), its context window (agents.defaults.contextTokens) and reserve (compaction.reserveTokens).
 */
import { join } from 'node:path';
import type { LaneRequest } from '../bridge';
import { isRecord, writeFileAtomic } from '../common';
import { printLaneSpec } from '../replay';
import { valueAt } from './configOperations';
import type { ConfigEnvironment, ConfigSnapshot } from './configSnapshot';
import { knownEngines, SLOT_DEFAULTS } from './validateConfig';

export interface TryLane {
  /** the lane as data, for replay.start */
  lane: LaneRequest;
  /** the same lane as a spec a person can type (--lane) */
  spec: string;
  label: string;
  /** the engine the lane runs */
  engineId: string;
  pluginId?: string;
  /** the temporary file holding the plugin's config */
  configFile?: string;
  window?: number;
  reserve?: number;
  keepRecentTokens?: number;
}

export interface TryLanes {
  saved: TryLane;
  edited: TryLane;
  /** true when both lanes run the same thing (the edit changes nothing a replay sees) */
  same: boolean;
  notes: string[];
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function laneOf(
  snapshot: ConfigSnapshot,
  label: string,
  dir: string,
  env: ConfigEnvironment,
  notes: string[],
): TryLane {
  const config = snapshot.effective;
  const slot = valueAt(config, ['plugins', 'slots', 'contextEngine']);
  const engineId = typeof slot === 'string' && slot.trim() ? slot.trim() : SLOT_DEFAULTS.contextEngine;
  const window = positiveInteger(valueAt(config, ['agents', 'defaults', 'contextTokens']));
  const reserveValue = valueAt(config, ['agents', 'defaults', 'compaction', 'reserveTokens']);
  const reserve =
    typeof reserveValue === 'number' && Number.isInteger(reserveValue) && reserveValue >= 0 ? reserveValue : undefined;
  const keepRecentTokens = positiveInteger(valueAt(config, ['agents', 'defaults', 'compaction', 'keepRecentTokens']));
  const laneOptions = {
    ...(window ? { window } : {}),
    ...(reserve !== undefined ? { reserve } : {}),
    label,
  };
  const common = {
    label,
    ...(window ? { window } : {}),
    ...(reserve !== undefined ? { reserve } : {}),
    ...(keepRecentTokens ? { keepRecentTokens } : {}),
  };
  const owner =
    engineId === SLOT_DEFAULTS.contextEngine
      ? undefined
      : knownEngines(snapshot.plugins, env.engines).find((e) => e.engineId === engineId && e.enabled);
  const plugin = owner && snapshot.plugins.find((p) => p.id === owner.pluginId);
  if (!plugin) {
    if (engineId !== SLOT_DEFAULTS.contextEngine) {
      notes.push(
        `${label}: "${engineId}" is not registered by any enabled plugin found here, so OpenClaw would fall back to legacy; this lane runs legacy`,
      );
    }
    const lane: LaneRequest = { kind: 'legacy', ...laneOptions };
    return { ...common, lane, spec: printLaneSpec(lane), engineId: SLOT_DEFAULTS.contextEngine };
  }
  const pluginConfig = valueAt(config, ['plugins', 'entries', plugin.id, 'config']);
  const configFile = join(dir, `${label.replace(/[^\w.-]+/g, '-')}.${plugin.id.replace(/[^\w.-]+/g, '-')}.json`);
  writeFileAtomic(configFile, `${JSON.stringify(isRecord(pluginConfig) ? pluginConfig : {}, null, 2)}\n`, {
    mode: 0o600,
  });
  const lane: LaneRequest = {
    kind: 'plugin',
    plugin: plugin.rootDir,
    configFile,
    ...(env.engines?.[plugin.id]?.includes(engineId) ? { engineId } : {}),
    ...laneOptions,
  };
  return { ...common, lane, spec: printLaneSpec(lane), engineId, pluginId: plugin.id, configFile };
}

/** The two lanes, their plugin configs written into `dir` (a temporary folder the caller owns). */
export function buildTryLanes(
  saved: ConfigSnapshot,
  edited: ConfigSnapshot,
  dir: string,
  env: ConfigEnvironment = {},
): TryLanes {
  const notes: string[] = [];
  const a = laneOf(saved, 'saved config', dir, env, notes);
  const b = laneOf(edited, 'edited config', dir, env, notes);
  if (a.keepRecentTokens !== b.keepRecentTokens) {
    notes.push(
      `keepRecentTokens differs (${a.keepRecentTokens ?? 'default'} → ${b.keepRecentTokens ?? 'default'}), but a replay applies one keepRecentTokens to every lane: both lanes use the edited value`,
    );
  }
  const pluginConfig = (snapshot: ConfigSnapshot, lane: TryLane) =>
    JSON.stringify(
      lane.pluginId ? (valueAt(snapshot.effective, ['plugins', 'entries', lane.pluginId, 'config']) ?? {}) : null,
    );
  const same =
    a.engineId === b.engineId &&
    a.pluginId === b.pluginId &&
    a.window === b.window &&
    a.reserve === b.reserve &&
    a.keepRecentTokens === b.keepRecentTokens &&
    pluginConfig(saved, a) === pluginConfig(edited, b);
  if (same)
    notes.push(
      'the edit changes nothing a replay uses (engine, plugin config, window, reserve): both lanes will agree',
    );
  return { saved: a, edited: b, same, notes };
}

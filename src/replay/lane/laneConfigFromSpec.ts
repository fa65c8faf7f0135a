/**
 * From a lane (a spec string, or one parsed or given as data: laneSpec.ts) to a ReplayLaneConfig: per-lane options
 * win over the run's defaults, and `config=<file>` is read as JSON5 (the plugin's `plugins.entries.<id>.config`).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import JSON5 from 'json5';
import { defaultLaneLabel, LaneSpecError, parseLaneSpec, type HostSpec, type ParsedLaneSpec } from './laneSpec';
import type { ReplayLaneConfig } from './replayTypes';

export interface LaneSpecDefaults {
  contextWindow: number;
  reserveTokens?: number;
  /** agents.defaults.compaction.keepRecentTokens (default: OpenClaw's) */
  keepRecentTokens?: number;
  /** agents.defaults.compaction.reserveTokensFloor (default: the release's) */
  reserveTokensFloor?: number;
  /** agents.defaults.compaction.enabled (default true) */
  compactionEnabled?: boolean;
  host?: HostSpec;
  /** relative config paths resolve against this (default: the process cwd) */
  baseDir?: string;
}

/** A plugin config from JSON5 text: an object, or a LaneSpecError naming the lane and where the text came from. */
function parsePluginConfig(text: string, spec: string, where: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (error) {
    throw new LaneSpecError(`Lane "${spec}": ${where} is not valid JSON/JSON5: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new LaneSpecError(
      `Lane "${spec}": ${where} must hold a JSON object (the plugin's config), not ${Array.isArray(value) ? 'an array' : typeof value}.`,
    );
  }
  return value as Record<string, unknown>;
}

export function laneConfigFromSpec(spec: string, defaults: LaneSpecDefaults): ReplayLaneConfig {
  return laneConfigOf(parseLaneSpec(spec), defaults);
}

export function laneConfigOf(parsed: ParsedLaneSpec, defaults: LaneSpecDefaults): ReplayLaneConfig {
  const spec = parsed.spec;
  const common = {
    label: defaultLaneLabel(parsed),
    spec: parsed.spec,
    contextWindow: parsed.window ?? defaults.contextWindow,
    ...((parsed.reserve ?? defaults.reserveTokens) !== undefined
      ? { reserveTokens: parsed.reserve ?? defaults.reserveTokens }
      : {}),
    ...(defaults.keepRecentTokens !== undefined ? { keepRecentTokens: defaults.keepRecentTokens } : {}),
    ...(defaults.reserveTokensFloor !== undefined ? { reserveTokensFloor: defaults.reserveTokensFloor } : {}),
    ...(defaults.compactionEnabled !== undefined ? { compactionEnabled: defaults.compactionEnabled } : {}),
    ...((parsed.host ?? defaults.host) !== undefined ? { host: parsed.host ?? defaults.host } : {}),
  };
  if (parsed.kind === 'legacy') return { ...common, engine: { kind: 'legacy' } };

  if (parsed.configFile && parsed.configText !== undefined) {
    throw new LaneSpecError(`Lane "${spec}": give the plugin config as config=<file> or configJson5=<text>, not both.`);
  }
  let pluginConfig: Record<string, unknown> | undefined;
  if (parsed.configFile) {
    const file = resolve(defaults.baseDir ?? process.cwd(), parsed.configFile);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new LaneSpecError(`Lane "${spec}": cannot read the plugin config ${file}: ${(error as Error).message}`);
    }
    pluginConfig = parsePluginConfig(text, spec, file);
  } else if (parsed.configText !== undefined) {
    pluginConfig = parsePluginConfig(parsed.configText, spec, 'its configJson5');
  }
  const plugin =
    parsed.plugin.startsWith('.') || parsed.plugin.startsWith('/')
      ? resolve(defaults.baseDir ?? process.cwd(), parsed.plugin)
      : parsed.plugin;
  return {
    ...common,
    engine: {
      kind: 'plugin',
      plugin,
      ...(parsed.engineId ? { engineId: parsed.engineId } : {}),
      ...(pluginConfig ? { pluginConfig } : {}),
      ...(parsed.timeoutMs !== undefined ? { callTimeoutMs: parsed.timeoutMs } : {}),
      ...(parsed.maxResultBytes !== undefined ? { maxResultBytes: parsed.maxResultBytes } : {}),
      ...(parsed.allow ? { allow: parsed.allow } : {}),
      ...(parsed.hostCodec ? { hostCodec: parsed.hostCodec } : {}),
    },
  };
}

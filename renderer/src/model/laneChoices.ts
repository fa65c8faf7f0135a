/**
 * The lanes a replay can be run with: `legacy` and every discovered context-engine plugin, with what stands in
 * the way of running each (invalid plugin, consent). Pure.
 */
import type { ConsentState, LaneRequest, ListedPlugin } from '../../../src/bridge';

export interface LaneChoice {
  /** what the form ticks the choice by (not a lane spec: replay.start gets `lane`) */
  key: string;
  /** the lane as data, sent to replay.start (the runtime prints it as a spec where one is shown) */
  lane: LaneRequest;
  /** what the user reads: `legacy`, `plugin:<id>` */
  label: string;
  description: string;
  plugin?: {
    id: string;
    path: string;
    consent: ConsentState;
  };
  /** why the lane cannot be chosen (an invalid plugin), or null */
  unavailable: string | null;
}

function folderName(path: string): string {
  return (
    path
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? path
  );
}

/** A plugin's lane — by folder, so the replay finds exactly the folder that was listed (and approved) — and its key. */
export function pluginLane(plugin: Pick<ListedPlugin, 'id' | 'path'>, engineId?: string): LaneChoice['lane'] {
  return {
    kind: 'plugin',
    plugin: plugin.path,
    ...(engineId ? { engineId } : {}),
    ...(folderName(plugin.path) === plugin.id ? {} : { label: plugin.id }),
  };
}

function pluginKey(plugin: Pick<ListedPlugin, 'path'>, engineId?: string): string {
  return engineId ? `plugin:${plugin.path} › ${engineId}` : `plugin:${plugin.path}`;
}

/**
 * `legacy`, each context-engine plugin (its default engine), and — where a doctor run that executed the plugins saw
 * a plugin register several engines (`enginesByPlugin`) — one choice per engine.
 */
export function laneChoices(
  plugins: readonly ListedPlugin[],
  enginesByPlugin: Readonly<Record<string, readonly string[]>> = {},
): LaneChoice[] {
  const choices: LaneChoice[] = [
    {
      key: 'legacy',
      lane: { kind: 'legacy' },
      label: 'legacy',
      description: "OpenClaw's built-in engine (history pipeline + built-in compaction)",
      unavailable: null,
    },
  ];
  for (const plugin of plugins) {
    if (!plugin.kind.includes('context-engine')) continue;
    const problems = [...plugin.errors, ...plugin.configErrors];
    choices.push({
      key: pluginKey(plugin),
      lane: pluginLane(plugin),
      label: `plugin:${plugin.id}`,
      description: plugin.description ?? plugin.name ?? plugin.id,
      plugin: { id: plugin.id, path: plugin.path, consent: plugin.consent.state },
      unavailable:
        problems.length > 0
          ? `${problems.length} problem${problems.length === 1 ? '' : 's'}: ${problems[0]!.message}`
          : null,
    });
    const engines = enginesByPlugin[plugin.id] ?? [];
    if (engines.length < 2) continue;
    const pluginChoice = choices[choices.length - 1]!;
    for (const engineId of engines) {
      choices.push({
        ...pluginChoice,
        key: pluginKey(plugin, engineId),
        lane: pluginLane(plugin, engineId),
        label: `plugin:${plugin.id} › ${engineId}`,
        description: `engine ${engineId} of ${plugin.id} (seen by the last doctor run)`,
      });
    }
  }
  return choices;
}

export interface ConsentRequest {
  /** plugin folder (approvable), or the lane spec as typed when it names no listed plugin */
  path: string;
  label: string;
  /** the folder is known: it can be approved permanently */
  approvable: boolean;
  stale: boolean;
}

/**
 * The ticked lanes the form shows, in its order: those among the choices. A key no choice lists (a plugin of
 * another state dir) has no checkbox, so a replay from the form does not run it.
 */
export function shownLanes(lanes: readonly string[], choices: readonly LaneChoice[]): string[] {
  return lanes.filter((key) => choices.some((choice) => choice.key === key));
}

/** The plugin a lane spec names (`plugin:<id or folder>?…`), decoded; null for a spec that is not a plugin lane. */
export function pluginTarget(spec: string): string | null {
  if (!spec.startsWith('plugin:')) return null;
  const raw = spec.slice('plugin:'.length).split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The listed plugin a spec names, by id or by folder. */
function listedPlugin(spec: string, choices: readonly LaneChoice[]): LaneChoice['plugin'] | undefined {
  const target = pluginTarget(spec);
  if (target === null) return undefined;
  const trimmed = target.replace(/[\\/]+$/, '');
  return choices.find((c) => c.plugin && (c.plugin.id === trimmed || c.plugin.path === trimmed))?.plugin;
}

/**
 * Typed lane specs that name a plugin nobody can find — an id (no folder separator) that is not among the listed
 * plugins — each as a sentence. Checked before any consent is asked: nothing runs for a plugin that is not there.
 */
export function unknownPluginSpecs(specs: readonly string[], choices: readonly LaneChoice[]): string[] {
  const known = choices.flatMap((c) => (c.plugin ? [c.plugin.id] : []));
  return specs.flatMap((spec) => {
    const target = pluginTarget(spec);
    if (target === null || /[\\/]/.test(target) || listedPlugin(spec, choices)) return [];
    return [
      `${spec}: no plugin "${target}" is installed (found: ${known.length > 0 ? known.join(', ') : 'none'}). ` +
        'Give a listed plugin id, or the folder of the plugin.',
    ];
  });
}

/**
 * Plugin lanes whose code has no (current) consent: ticked choices (by key) and typed specs that name a listed
 * plugin ask for that plugin's folder (approvable); a typed folder that is not listed always asks.
 */
export function consentRequests(
  selected: readonly string[],
  choices: readonly LaneChoice[],
  extraSpecs: readonly string[] = [],
): ConsentRequest[] {
  const requests: ConsentRequest[] = [];
  const asked = new Set<string>();
  const ticked = selected.flatMap((key) => choices.filter((c) => c.key === key));
  for (const { plugin, label } of ticked) {
    if (!plugin || plugin.consent === 'granted' || asked.has(plugin.path)) continue;
    asked.add(plugin.path);
    requests.push({ path: plugin.path, label, approvable: true, stale: plugin.consent === 'stale-hash' });
  }
  for (const spec of extraSpecs) {
    const plugin = listedPlugin(spec, choices);
    if (plugin) {
      if (plugin.consent === 'granted' || asked.has(plugin.path)) continue;
      asked.add(plugin.path);
      const label = `plugin:${plugin.id}`;
      requests.push({ path: plugin.path, label, approvable: true, stale: plugin.consent === 'stale-hash' });
    } else if (spec.startsWith('plugin:')) {
      requests.push({ path: spec, label: spec, approvable: false, stale: false });
    }
  }
  return requests;
}

/** Extra lane specs typed by the user, separated by whitespace. */
export function parseExtraSpecs(text: string): string[] {
  return text.split(/\s+/).filter((s) => s.length > 0);
}

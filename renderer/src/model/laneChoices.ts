/**
 * The lanes a replay can be run with: `legacy` and every discovered context-engine plugin, with what stands in
 * the way of running each (invalid plugin, consent). Pure.
 */
import type { ConsentState, ListedPlugin } from '../../../src/bridge';

export interface LaneChoice {
  /** the lane spec sent to replay.start */
  spec: string;
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

/** Characters that would end the plugin part of a lane spec; lane specs percent-decode values. */
function escapeSpecPath(path: string): string {
  return path.replace(/[%?&#]/g, (c) => encodeURIComponent(c));
}

function folderName(path: string): string {
  return (
    path
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() ?? path
  );
}

/** `plugin:<folder>` — by path, so the replay finds exactly the folder that was listed (and approved). */
export function pluginLaneSpec(plugin: Pick<ListedPlugin, 'id' | 'path'>): string {
  const spec = `plugin:${escapeSpecPath(plugin.path)}`;
  return folderName(plugin.path) === plugin.id ? spec : `${spec}?label=${encodeURIComponent(plugin.id)}`;
}

/** The lane spec of one engine of a plugin: the plugin's spec with `engine=<id>`. */
export function engineLaneSpec(plugin: Pick<ListedPlugin, 'id' | 'path'>, engineId: string): string {
  const spec = pluginLaneSpec(plugin);
  return `${spec}${spec.includes('?') ? '&' : '?'}engine=${encodeURIComponent(engineId)}`;
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
      spec: 'legacy',
      label: 'legacy',
      description: "OpenClaw's built-in engine (history pipeline + built-in compaction)",
      unavailable: null,
    },
  ];
  for (const plugin of plugins) {
    if (!plugin.kind.includes('context-engine')) continue;
    const problems = [...plugin.errors, ...plugin.configErrors];
    choices.push({
      spec: pluginLaneSpec(plugin),
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
        spec: engineLaneSpec(plugin, engineId),
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
 * The ticked lanes the form shows, in its order: those among the choices. A spec no choice lists (a plugin of
 * another state dir) has no checkbox, so a replay from the form does not run it.
 */
export function shownLanes(lanes: readonly string[], choices: readonly LaneChoice[]): string[] {
  return lanes.filter((spec) => choices.some((choice) => choice.spec === spec));
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
 * Lane specs that name a plugin nobody can find — an id (no folder separator) that is not among the listed
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
 * Plugin lanes whose code has no (current) consent: ticked choices and typed specs that name a listed plugin ask
 * for that plugin's folder (approvable); a typed folder that is not listed always asks.
 */
export function consentRequests(
  selected: readonly string[],
  choices: readonly LaneChoice[],
  extraSpecs: readonly string[] = [],
): ConsentRequest[] {
  const requests: ConsentRequest[] = [];
  const asked = new Set<string>();
  for (const spec of [...selected, ...extraSpecs]) {
    const plugin = choices.find((c) => c.spec === spec)?.plugin ?? listedPlugin(spec, choices);
    if (plugin) {
      if (plugin.consent === 'granted' || asked.has(plugin.path)) continue;
      asked.add(plugin.path);
      const label = choices.find((c) => c.spec === spec)?.label ?? `plugin:${plugin.id}`;
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

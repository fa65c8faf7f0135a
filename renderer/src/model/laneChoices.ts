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

/** Selected plugin lanes whose code has no (current) consent; typed plugin specs always ask. */
export function consentRequests(
  selected: readonly string[],
  choices: readonly LaneChoice[],
  extraSpecs: readonly string[] = [],
): ConsentRequest[] {
  const requests: ConsentRequest[] = [];
  for (const spec of selected) {
    const choice = choices.find((c) => c.spec === spec);
    if (choice?.plugin && choice.plugin.consent !== 'granted') {
      requests.push({
        path: choice.plugin.path,
        label: choice.label,
        approvable: true,
        stale: choice.plugin.consent === 'stale-hash',
      });
    }
  }
  for (const spec of extraSpecs) {
    if (spec.startsWith('plugin:')) requests.push({ path: spec, label: spec, approvable: false, stale: false });
  }
  return requests;
}

/** Extra lane specs typed by the user, separated by whitespace. */
export function parseExtraSpecs(text: string): string[] {
  return text.split(/\s+/).filter((s) => s.length > 0);
}

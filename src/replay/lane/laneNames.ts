import type { ReplayLaneConfig } from './replayTypes';
import { defaultLaneLabel } from './laneSpec';

/** Lane ids: readable, no spaces or slashes (a "/" separates a subagent lane from its parent lane's id). */
function laneSlug(text: string): string {
  return text.replace(/[^A-Za-z0-9._@:#-]+/g, '-').replace(/^-+|-+$/g, '') || 'lane';
}

/** A lane id as a folder name. */
export function fsSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'lane';
}

/** The label a lane gets when its config names none. */
export function defaultLabel(lane: ReplayLaneConfig): string {
  if (lane.label) return lane.label;
  if (lane.engine.kind === 'legacy') return 'legacy';
  if (lane.engine.kind === 'in-process') return lane.engine.engineId;
  return defaultLaneLabel({
    kind: 'plugin',
    plugin: lane.engine.plugin,
    spec: '',
    ...(lane.engine.engineId ? { engineId: lane.engine.engineId } : {}),
  });
}

/** The spec a lane record shows: the config's own, else one rebuilt from its engine. */
export function laneSpecText(lane: ReplayLaneConfig): string {
  if (lane.spec) return lane.spec;
  if (lane.engine.kind === 'plugin') return `plugin:${lane.engine.plugin}`;
  return lane.engine.kind === 'legacy' ? 'legacy' : `in-process:${lane.engine.engineId}`;
}

/** Unique lane ids within one replay: `legacy`, `legacy#2`; a subagent lane is `<parent id>/<slug>`. */
export class LaneIds {
  private readonly used = new Set<string>();

  next(base: string, parent?: string): string {
    const slug = parent ? `${parent}/${laneSlug(base)}` : laneSlug(base);
    let id = slug;
    for (let n = 2; this.used.has(id); n++) id = `${slug}#${n}`;
    this.used.add(id);
    return id;
  }
}

/**
 * Try before save: the two lanes `config.tryLanes` built (the saved config and the edited one) as the replay
 * form's lane choices, so the usual consent dialog asks before plugin code runs. Pure.
 */
import type { ConfigPluginInfo, ConfigTryLanesResponse } from '../../../src/bridge/methods';
import type { LaneChoice } from './laneChoices';

type TryLane = ConfigTryLanesResponse['saved'];

function choiceOf(lane: TryLane, plugins: readonly ConfigPluginInfo[]): LaneChoice {
  const plugin = lane.pluginId ? plugins.find((p) => p.id === lane.pluginId) : undefined;
  return {
    // the spec config.tryLanes printed names the lane for the form; replay.start gets the lane as data
    key: lane.spec,
    lane: lane.lane,
    label: `${lane.label}: ${lane.engineId}`,
    description: plugin ? `${plugin.id} with the ${lane.label}` : `OpenClaw's built-in engine (${lane.label})`,
    ...(plugin ? { plugin: { id: plugin.id, path: plugin.path, consent: plugin.consent } } : {}),
    unavailable: null,
  };
}

export function tryLaneChoices(lanes: ConfigTryLanesResponse, plugins: readonly ConfigPluginInfo[]): LaneChoice[] {
  return [choiceOf(lanes.saved, plugins), choiceOf(lanes.edited, plugins)];
}

/** One line per lane for the view: "saved config: legacy · window 32000" */
export function describeTryLane(lane: TryLane): string {
  const parts = [lane.engineId];
  if (lane.window) parts.push(`window ${lane.window}`);
  if (lane.reserve !== undefined) parts.push(`reserve ${lane.reserve}`);
  if (lane.keepRecentTokens) parts.push(`keep recent ${lane.keepRecentTokens}`);
  return `${lane.label}: ${parts.join(' · ')}`;
}

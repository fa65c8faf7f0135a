import { useEffect } from 'react';
import type { InspectorClient } from '../bridge/InspectorClient';
import type { LaneChoice } from '../model/laneChoices';
import { DEMO_PLUGIN_ID } from '../store/openDemo';
import { usePluginsStore } from '../store/pluginsStore';
import { useReplayStore } from '../store/replayStore';
import { useSessionDefaultsStore } from '../store/sessionDefaults';
import { useSessionsStore } from '../store/sessionsStore';

/** Lists the state dir's sessions and plugins once a client is there, unless they are listed (or listing) already. */
export function useSessionsAndPluginsLoaded(client: InspectorClient | null): void {
  useEffect(() => {
    if (!client) return;
    if (!useSessionsStore.getState().loaded && !useSessionsStore.getState().loading)
      void useSessionsStore.getState().loadWorkspace(client);
    if (!usePluginsStore.getState().list && !usePluginsStore.getState().loading)
      void usePluginsStore.getState().load(client);
  }, [client]);
}

/** Preselects the demo plugin lane beside legacy until the user picks lanes themselves. */
export function useDemoLanePreselected(choices: readonly LaneChoice[]): void {
  useEffect(() => {
    const state = useReplayStore.getState();
    const demoLane = choices.find((choice) => choice.plugin?.id === DEMO_PLUGIN_ID && choice.unavailable === null);
    if (!state.lanesTouched && demoLane && !state.form.lanes.includes(demoLane.key))
      state.setForm({ lanes: [...state.form.lanes, demoLane.key] });
  }, [choices]);
}

/** The replay form takes the chosen session's defaults (replay.defaults) each time another session is chosen. */
export function useSessionDefaultsApplied(client: InspectorClient | null): void {
  const selectedFile = useSessionsStore((s) => s.selectedFile);
  useEffect(() => {
    if (!client || !selectedFile) return;
    if (useSessionDefaultsStore.getState().sessionFile === selectedFile) return;
    const { source, stateDir } = useSessionsStore.getState();
    void useSessionDefaultsStore.getState().apply(client, selectedFile, source === 'state' ? stateDir : undefined);
  }, [client, selectedFile]);
}

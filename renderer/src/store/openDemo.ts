/**
 * "Replay the demo": the bundled short demo session through `legacy` and the bundled `recent-window` plugin,
 * from anywhere in the app — loads what is missing, fills the form, goes to Sessions and starts (the consent
 * dialog appears first when the plugin is not approved yet).
 */
import type { InspectorApi } from '../../../src/bridge';
import { laneChoices } from '../model/laneChoices';
import { DEMO_SESSION_KEY, pickDemoSession, sessionTitle } from '../model/sessionRows';
import { useAppStore } from './appStore';
import { usePluginsStore } from './pluginsStore';
import { DEFAULT_WINDOW, useReplayStore } from './replayStore';
import { useSessionsStore } from './sessionsStore';

export const DEMO_PLUGIN_ID = 'recent-window';
export const DEMO_KEEP_RECENT_TOKENS = 6000;

export async function openDemoReplay(api: InspectorApi): Promise<void> {
  useAppStore.getState().selectSection('sessions');
  const sessions = useSessionsStore.getState();
  const plugins = usePluginsStore.getState();
  await Promise.all([
    sessions.loaded && sessions.stateDir !== '' ? Promise.resolve() : sessions.load(api),
    plugins.list ? Promise.resolve() : plugins.load(api),
  ]);
  // the demo lives in the bundled folder: go back to it when another folder is shown
  if (!useSessionsStore.getState().sessions.some((s) => s.key === DEMO_SESSION_KEY))
    await useSessionsStore.getState().load(api);
  const loaded = useSessionsStore.getState();
  const demo = pickDemoSession(loaded.sessions);
  if (!demo) return;
  loaded.select(demo.file);
  const choices = laneChoices(usePluginsStore.getState().list?.plugins ?? []);
  const pluginLane = choices.find((choice) => choice.plugin?.id === DEMO_PLUGIN_ID && choice.unavailable === null);
  const replay = useReplayStore.getState();
  // At a 32k window OpenClaw's default keepRecentTokens (20000) exceeds the 12000-token prompt budget, so every
  // compaction would keep everything; the demo keeps 6000 recent tokens so compactions visibly shrink the context.
  replay.setForm({
    lanes: pluginLane ? ['legacy', pluginLane.spec] : ['legacy'],
    window: String(DEFAULT_WINDOW),
    keepRecentTokens: String(DEMO_KEEP_RECENT_TOKENS),
    extraSpecs: '',
  });
  await useReplayStore.getState().requestStart(api, { file: demo.file, title: sessionTitle(demo) }, choices);
}

/**
 * "Replay the demo": the bundled demo session (agent:main:main: 16 turns, two subagents and a failed spawn)
 * through `legacy`, the bundled `recent-window` plugin and an optional deliberately faulty lane (its factory
 * throws, so it is quarantined and runs on legacy), from anywhere in the app — loads what is missing, fills the
 * form with the session's own defaults (the demo state dir's openclaw.json gives its model a 48k window, so a few
 * compactions happen), goes to Sessions and starts (the consent dialog appears first when a plugin is not approved).
 */
import type { InspectorApi } from '../../../src/bridge';
import { laneChoices } from '../model/laneChoices';
import { DEMO_SESSION_KEY, pickDemoSession, sessionTitle } from '../model/sessionRows';
import { useAppStore } from './appStore';
import { usePluginsStore } from './pluginsStore';
import { useReplayStore } from './replayStore';
import { useSessionDefaultsStore } from './sessionDefaults';
import { useSessionsStore } from './sessionsStore';

export const DEMO_PLUGIN_ID = 'recent-window';
export const DEMO_FAULTY_PLUGIN_ID = 'faulty-engines';
export const DEMO_FAULTY_ENGINE = 'faulty-factory-throws';

/**
 * The optional faulty lane of the demo when the faulty-engines sample is listed: a lane spec in the form's typed
 * field, as a person would type it (the plugin by id, found through discovery), so it shows what it runs.
 */
export function demoFaultyLane(): string | null {
  const faulty = usePluginsStore.getState().list?.plugins.find((p) => p.id === DEMO_FAULTY_PLUGIN_ID);
  if (!faulty || faulty.errors.length > 0) return null;
  return `plugin:${DEMO_FAULTY_PLUGIN_ID}?engine=${DEMO_FAULTY_ENGINE}&label=optional:%20faulty%20factory`;
}

export async function openDemoReplay(api: InspectorApi): Promise<void> {
  useAppStore.getState().selectSection('sessions');
  const plugins = usePluginsStore.getState();
  await Promise.all([
    useSessionsStore.getState().source === 'demo' && useSessionsStore.getState().loaded
      ? Promise.resolve()
      : useSessionsStore.getState().load(api),
    plugins.list ? Promise.resolve() : plugins.load(api),
  ]);
  // the demo lives in the bundled folder: go back to it when another folder is shown
  if (!useSessionsStore.getState().sessions.some((s) => s.key === DEMO_SESSION_KEY))
    await useSessionsStore.getState().load(api);
  const loaded = useSessionsStore.getState();
  const demo = pickDemoSession(loaded.sessions);
  if (!demo) return;
  loaded.select(demo.file);
  await useSessionDefaultsStore.getState().apply(api, demo.file);
  const choices = laneChoices(usePluginsStore.getState().list?.plugins ?? []);
  const pluginLane = choices.find((choice) => choice.plugin?.id === DEMO_PLUGIN_ID && choice.unavailable === null);
  const faulty = demoFaultyLane();
  useReplayStore.getState().setForm({
    lanes: ['legacy', ...(pluginLane ? [pluginLane.key] : [])],
    extraSpecs: faulty ?? '',
  });
  await useReplayStore.getState().requestStart(api, { file: demo.file, title: sessionTitle(demo) }, choices);
}

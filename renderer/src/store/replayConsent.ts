/** Consent before plugin code runs: ask when a plugin lane needs it, remember it or run once, then start. */
import type { InspectorApi } from '../../../src/bridge';
import { consentRequests, parseExtraSpecs, unknownPluginSpecs, type LaneChoice } from '../model/laneChoices';
import { errorText } from './errorText';
import { usePluginsStore } from './pluginsStore';
import { replayParams } from './replayParams';
import { startReplay } from './replayRun';
import type { ReplayStoreAccess } from './replayTypes';

export async function requestStart(
  store: ReplayStoreAccess,
  api: InspectorApi,
  session: { file: string; title: string },
  choices: readonly LaneChoice[],
): Promise<void> {
  const { set, get } = store;
  const built = replayParams(get().form, session.file, false);
  if (!built.ok) {
    set({ formError: built.problem });
    return;
  }
  const extra = parseExtraSpecs(get().form.extraSpecs);
  const unknown = unknownPluginSpecs([...get().form.lanes, ...extra], choices);
  if (unknown.length > 0) {
    set({ formError: unknown.join('\n') });
    return;
  }
  const requests = consentRequests(get().form.lanes, choices, extra);
  if (requests.length > 0) {
    set({ pending: { sessionFile: session.file, sessionTitle: session.title, requests }, formError: null });
    return;
  }
  await startReplay(store, api, session.file, session.title, false);
}

export async function confirmConsent(
  store: ReplayStoreAccess,
  api: InspectorApi,
  mode: 'approve' | 'once',
): Promise<void> {
  const { set, get } = store;
  const pending = get().pending;
  if (!pending) return;
  if (mode === 'approve') {
    set({ consentBusy: true });
    try {
      for (const request of pending.requests.filter((r) => r.approvable))
        await api.call('plugins.approve', { path: request.path });
    } catch (error) {
      set({ consentBusy: false, pending: null, formError: `Could not remember consent: ${errorText(error)}` });
      return;
    }
    const plugins = usePluginsStore.getState();
    void plugins.load(api, plugins.list?.stateDir);
  }
  // typed plugin specs cannot be approved by folder: they run with this run's allowExecute
  const allowExecute = mode === 'once' || pending.requests.some((r) => !r.approvable);
  set({ consentBusy: false, pending: null });
  await startReplay(store, api, pending.sessionFile, pending.sessionTitle, allowExecute);
}

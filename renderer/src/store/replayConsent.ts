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
  const built = replayParams(get().form, session.file);
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
  await startReplay(store, api, session.file, session.title);
}

/** The main process's consent for these plugin folders (or `plugin:<folder>` specs): its one-time nonce. */
export async function askConsent(api: InspectorApi, paths: string[], purpose: 'approve' | 'run'): Promise<string> {
  return (await api.call('plugins.requestConsent', { paths, purpose })).nonce;
}

/**
 * `approve`: the main process confirms and remembers the approvable plugins, then the replay starts; `once`: it
 * confirms every plugin for this run only. Typed plugin specs cannot be approved by folder: they are confirmed for
 * this run either way.
 */
export async function confirmConsent(
  store: ReplayStoreAccess,
  api: InspectorApi,
  mode: 'approve' | 'once',
): Promise<void> {
  const { set, get } = store;
  const pending = get().pending;
  if (!pending) return;
  const approvable = mode === 'approve' ? pending.requests.filter((r) => r.approvable).map((r) => r.path) : [];
  const runOnce = pending.requests.map((r) => r.path).filter((path) => !approvable.includes(path));
  set({ consentBusy: true });
  let consentNonce: string | undefined;
  try {
    if (approvable.length > 0) {
      await api.call('plugins.approve', { nonce: await askConsent(api, approvable, 'approve') });
      const plugins = usePluginsStore.getState();
      void plugins.load(api, plugins.list?.stateDir);
    }
    if (runOnce.length > 0) consentNonce = await askConsent(api, runOnce, 'run');
  } catch (error) {
    set({ consentBusy: false, pending: null, formError: `Consent was not given: ${errorText(error)}` });
    return;
  }
  set({ consentBusy: false, pending: null });
  await startReplay(store, api, pending.sessionFile, pending.sessionTitle, consentNonce);
}

/** Consent before plugin code runs: ask when a plugin lane needs it, remember it or run once, then start. */
import type { InspectorApi } from '../../../src/bridge';
import {
  consentRequests,
  parseExtraSpecs,
  unknownPluginSpecs,
  type ConsentRequest,
  type LaneChoice,
} from '../model/laneChoices';
import { errorText } from './errorText';
import { usePluginsStore } from './pluginsStore';
import { replayParams } from './replayParams';
import { startReplay } from './replayRun';
import type { LaunchOptions, ReplayLaunch, ReplayStoreAccess, StartOutcome } from './replayTypes';

export async function requestStart(
  store: ReplayStoreAccess,
  api: InspectorApi,
  session: { file: string; title: string },
  choices: readonly LaneChoice[],
  options: LaunchOptions = {},
): Promise<StartOutcome> {
  const { set, get } = store;
  const launch: ReplayLaunch = {
    session,
    form: { ...get().form, ...options.form },
    choices,
    opensIn: options.opensIn ?? 'replay',
  };
  const built = replayParams(launch.form, session.file, choices);
  if (!built.ok) {
    set({ formError: built.problem });
    return 'refused';
  }
  const extra = parseExtraSpecs(launch.form.extraSpecs);
  const unknown = unknownPluginSpecs(extra, choices);
  if (unknown.length > 0) {
    set({ formError: unknown.join('\n') });
    return 'refused';
  }
  const requests = consentRequests(launch.form.lanes, choices, extra);
  if (requests.length > 0) {
    set({ pending: { launch, requests }, formError: null });
    return 'asked';
  }
  await startReplay(store, api, launch);
  return 'started';
}

/** The main process's consent for these plugin folders (or `plugin:<folder>` specs): its one-time nonce. */
export async function askConsent(api: InspectorApi, paths: string[], purpose: 'approve' | 'run'): Promise<string> {
  return (await api.call('plugins.requestConsent', { paths, purpose })).nonce;
}

/**
 * Consent for `requests` from the main process. `approve`: it confirms and remembers the approvable plugins (the
 * plugin list reloads); `once`: it confirms every plugin for this run only. Typed plugin specs cannot be approved by
 * folder: they are confirmed for this run either way. Returns the run nonce, when one is needed.
 */
export async function confirmPlugins(
  api: InspectorApi,
  requests: readonly ConsentRequest[],
  mode: 'approve' | 'once',
): Promise<string | undefined> {
  const approvable = mode === 'approve' ? requests.filter((r) => r.approvable).map((r) => r.path) : [];
  const runOnce = requests.map((r) => r.path).filter((path) => !approvable.includes(path));
  if (approvable.length > 0) {
    await api.call('plugins.approve', { nonce: await askConsent(api, approvable, 'approve') });
    const plugins = usePluginsStore.getState();
    void plugins.load(api, plugins.list?.stateDir);
  }
  return runOnce.length > 0 ? await askConsent(api, runOnce, 'run') : undefined;
}

/** The replay waiting for consent: confirmed (see confirmPlugins), then started with the run nonce. */
export async function confirmConsent(
  store: ReplayStoreAccess,
  api: InspectorApi,
  mode: 'approve' | 'once',
): Promise<void> {
  const { set, get } = store;
  const pending = get().pending;
  if (!pending) return;
  set({ consentBusy: true });
  let consentNonce: string | undefined;
  try {
    consentNonce = await confirmPlugins(api, pending.requests, mode);
  } catch (error) {
    set({ consentBusy: false, pending: null, formError: `Consent was not given: ${errorText(error)}` });
    return;
  }
  set({ consentBusy: false, pending: null });
  await startReplay(store, api, pending.launch, consentNonce);
}

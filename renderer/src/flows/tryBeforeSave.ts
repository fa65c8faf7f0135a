/**
 * Try before save, as one workflow: `config.tryLanes` builds a lane of the saved config and one of the edited
 * config; they replay on the chosen session through the usual replay flow (the consent dialog asks before plugin
 * code runs), and the recording opens in Compare, the two lanes side by side. The lanes go to the replay as this
 * replay's own (requestStart's options): the replay form keeps what it shows, so a later replay from Sessions runs
 * exactly the lanes ticked there. The window, reserve, host and release are the form's (the lanes' specs carry the
 * configs' own window and reserve when they set one).
 */
import type { InspectorApi } from '../../../src/bridge';
import { tryLaneChoices } from '../model/configTry';
import { configInput, useConfigStore } from '../store/configStore';
import { errorText } from '../store/errorText';
import { useReplayStore } from '../store/replayStore';

export async function tryBeforeSave(api: InspectorApi, session: { file: string; title: string }): Promise<void> {
  const config = useConfigStore.getState();
  const read = config.read;
  if (!read) return;
  const { setTryState } = config;
  setTryState({ status: 'preparing', notes: [], error: null });
  try {
    const lanes = await api.call('config.tryLanes', {
      ...config.location,
      baseHash: read.hash,
      ...configInput(config),
    });
    if (lanes.refused) return setTryState({ status: 'failed', notes: [], error: lanes.refused });
    setTryState({ status: 'started', notes: lanes.notes, error: null });
    const outcome = await useReplayStore.getState().requestStart(api, session, tryLaneChoices(lanes, read.plugins), {
      form: {
        lanes: tryLaneChoices(lanes, read.plugins).map((choice) => choice.key),
        extraSpecs: '',
        laneConfigs: {},
        // a replay applies one keepRecentTokens to every lane: the edited config's (tryLanes notes it)
        keepRecentTokens: lanes.edited.keepRecentTokens ? String(lanes.edited.keepRecentTokens) : '',
        follow: false,
      },
      opensIn: 'compare',
    });
    if (outcome === 'refused')
      setTryState({ status: 'failed', notes: lanes.notes, error: useReplayStore.getState().formError });
  } catch (error) {
    setTryState({ status: 'failed', notes: [], error: errorText(error) });
  }
}

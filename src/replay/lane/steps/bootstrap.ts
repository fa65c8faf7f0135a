import type { BootstrapParams, ContextEngineRuntimeSettings } from '../../../contract';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';

export const BOOTSTRAP_FAILED_WARNING = 'context engine bootstrap failed: ';

/** Bootstrap + `maintain("bootstrap")`, only when the lane's transcript file already existed (spec §13 step 4, §14.50). */
export async function bootstrapExistingTranscript(
  lane: Lane,
  draft: TurnDraft,
  runtimeSettings: ContextEngineRuntimeSettings,
): Promise<void> {
  const { engine, transcript } = lane;
  if (!transcript.existsOnDisk() || !(engine.has('bootstrap') || engine.has('maintain'))) return;
  if (engine.has('bootstrap')) {
    const params: BootstrapParams = {
      ...lane.sessionParams,
      sessionFile: transcript.engineSessionFile,
      ...lane.targetParams(),
      runtimeSettings,
      runtimeContext: lane.runtimeContext(),
    };
    const outcome = await engine.call(draft, 'bootstrap', params);
    if (!outcome.ok) draft.warn(BOOTSTRAP_FAILED_WARNING + outcome.message);
  }
  const maintained = await lane.maintain(draft, 'bootstrap', runtimeSettings);
  if (maintained && !maintained.ok) draft.warn(BOOTSTRAP_FAILED_WARNING + maintained.message);
}

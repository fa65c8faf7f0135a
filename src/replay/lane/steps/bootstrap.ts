import type { BootstrapParams, ContextEngineRuntimeSettings } from '../../../contract';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import { errorText, logsTurnFailures, noteEngineFailure } from '../turnFailures';

export const BOOTSTRAP_FAILED_WARNING = 'context engine bootstrap failed: ';

/** Bootstrap + `maintain("bootstrap")`, only when the lane's transcript file already existed (behaviour §13 step 4, §14.50). */
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
    if (!outcome.ok && logsTurnFailures(lane)) {
      // 9.6 context-engine-lifecycle-*.mjs: bootstrap and maintain("bootstrap") share one try, so maintain is skipped
      noteEngineFailure(lane, draft, 'bootstrap', errorText(outcome), BOOTSTRAP_FAILED_WARNING + errorText(outcome));
      return;
    }
    if (!outcome.ok) draft.warn(BOOTSTRAP_FAILED_WARNING + outcome.message);
  }
  const maintained = await lane.maintain(draft, 'bootstrap', runtimeSettings);
  if (!maintained || maintained.ok) return;
  // 9.6 `runContextEngineMaintenance` catches and logs its own failure
  if (logsTurnFailures(lane)) noteMaintainFailure(lane, draft, 'bootstrap', errorText(maintained));
  else draft.warn(BOOTSTRAP_FAILED_WARNING + maintained.message);
}

/** OpenClaw's `context engine maintain failed (<reason>): <error>` (9.6 context-engine-maintenance-*.mjs). */
export function noteMaintainFailure(lane: Lane, draft: TurnDraft, reason: string, error: string): void {
  noteEngineFailure(lane, draft, 'maintain', error, `context engine maintain failed (${reason}): ${error}`);
}

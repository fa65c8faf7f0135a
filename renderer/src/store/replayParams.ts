/** The replay form's defaults and its translation into the params of replay.start. Pure. */
import type { LaneRequest, RequestOf } from '../../../src/bridge';
import { parseExtraSpecs, type LaneChoice } from '../model/laneChoices';
import type { ReplayFormState } from './replayTypes';

export const DEFAULT_WINDOW = 32_000;
export const DEFAULT_HOST = 'embedded';

/** A ticked plugin lane with the JSON5 config typed for it (the replay parses and checks it). */
export function withLaneConfig(lane: LaneRequest, config: string | undefined): LaneRequest {
  const text = config?.trim();
  return text && lane.kind === 'plugin' ? { ...lane, configText: text } : lane;
}

/**
 * The params of replay.start from the form, or a sentence saying what to fix: the ticked choices as lanes given as
 * data, then the typed lane specs as they were typed (the runtime parses both).
 */
export function replayParams(
  form: ReplayFormState,
  sessionFile: string,
  choices: readonly LaneChoice[],
  consentNonce?: string,
): { ok: true; params: RequestOf<'replay.start'> } | { ok: false; problem: string } {
  const ticked = form.lanes.flatMap((key) => choices.filter((choice) => choice.key === key));
  const lanes = [
    ...ticked.map((choice) => withLaneConfig(choice.lane, form.laneConfigs[choice.key])),
    ...parseExtraSpecs(form.extraSpecs),
  ];
  if (lanes.length === 0) return { ok: false, problem: 'Choose at least one lane (for example legacy).' };
  if (lanes.length > 8) return { ok: false, problem: `A replay runs at most 8 lanes; ${lanes.length} are chosen.` };
  const window = Number(form.window);
  if (!Number.isInteger(window) || window < 1)
    return { ok: false, problem: `Context window must be a whole number of tokens, e.g. ${DEFAULT_WINDOW}.` };
  let reserve: number | undefined;
  if (form.reserve.trim() !== '') {
    reserve = Number(form.reserve);
    if (!Number.isInteger(reserve) || reserve < 0)
      return { ok: false, problem: 'Reserve must be a whole number of tokens (or empty for OpenClaw’s default).' };
  }
  let keepRecentTokens: number | undefined;
  if (form.keepRecentTokens.trim() !== '') {
    keepRecentTokens = Number(form.keepRecentTokens);
    if (!Number.isInteger(keepRecentTokens) || keepRecentTokens < 1) {
      return {
        ok: false,
        problem: 'Keep recent must be a positive whole number of tokens (or empty for OpenClaw’s default, 20000).',
      };
    }
  }
  const host = form.host.trim();
  const openclawVersion = form.openclawVersion.trim();
  return {
    ok: true,
    params: {
      sessionPath: sessionFile,
      lanes,
      window,
      ...(reserve !== undefined ? { reserve } : {}),
      ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
      ...(host !== '' ? { host } : {}),
      ...(openclawVersion !== '' ? { openclawVersion } : {}),
      ...(form.follow ? { follow: true } : {}),
      ...(consentNonce !== undefined ? { consentNonce } : {}),
    },
  };
}

/** The replay form's defaults and its translation into the params of replay.start. Pure. */
import type { RequestOf } from '../../../src/bridge';
import { parseExtraSpecs } from '../model/laneChoices';
import type { ReplayFormState } from './replayTypes';

export const DEFAULT_WINDOW = 32_000;
export const DEFAULT_HOST = 'embedded';

/** A plugin lane's spec with its JSON5 config inline (`configJson5=`; the replay parses and checks it). */
export function withLaneConfig(spec: string, config: string | undefined): string {
  const text = config?.trim();
  if (!text || !spec.startsWith('plugin:')) return spec;
  return `${spec}${spec.includes('?') ? '&' : '?'}configJson5=${encodeURIComponent(text)}`;
}

/** The params of replay.start from the form, or a sentence saying what to fix. */
export function replayParams(
  form: ReplayFormState,
  sessionFile: string,
  consentNonce?: string,
): { ok: true; params: RequestOf<'replay.start'> } | { ok: false; problem: string } {
  const lanes = [
    ...form.lanes.map((spec) => withLaneConfig(spec, form.laneConfigs[spec])),
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

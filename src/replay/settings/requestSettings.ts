/**
 * Settings for a replay a form started (bridge `replay.start`): what the request leaves out comes from the
 * session's state dir and release (resolveReplaySettings); a value the form sent keeps the source of the default
 * it equals (a form pre-filled from `replay.defaults`), and is `flag` when the user changed it.
 */
import type { LoadedSession } from '../../transcripts';
import { resolveReplaySettings, settingSourcesOf, type ReplaySettings } from './resolveReplaySettings';

export interface RequestedSettings {
  contextWindow?: number;
  reserveTokens?: number;
  keepRecentTokens?: number;
  openclawVersion?: string;
}

export async function settingsForRequest(
  session: LoadedSession,
  requested: RequestedSettings,
  stateDir?: string,
): Promise<{ settings: ReplaySettings; sources: Record<string, string> }> {
  const base = await resolveReplaySettings({
    session,
    ...(stateDir ? { stateDir } : {}),
    ...(requested.openclawVersion !== undefined ? { overrides: { openclawVersion: requested.openclawVersion } } : {}),
  });
  const sources = settingSourcesOf(base);
  const settings = { ...base.settings };
  for (const key of ['contextWindow', 'reserveTokens', 'keepRecentTokens'] as const) {
    const value = requested[key];
    if (value === undefined) continue;
    if (value !== settings[key]) sources[key] = 'flag';
    settings[key] = value;
  }
  return { settings, sources };
}

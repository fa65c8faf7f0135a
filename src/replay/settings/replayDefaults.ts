/** `replay.defaults` over the bridge: the settings a replay of that session uses unless the form overrides them. */
import { openReplaySession } from '../session/resolveSessionInput';
import { openClawVersionProfile } from '../lane/openclawVersion';
import { resolveReplaySettings, type ResolvedReplaySettings } from './resolveReplaySettings';

export interface ReplayDefaultsRequest {
  /** what replay.start takes: a transcript file, a folder, or `<agent database>#<session key>` */
  sessionPath: string;
  /** the state dir whose openclaw.json applies (default: the one the session lies in) */
  stateDir?: string;
  /** resolve for this release instead of the inferred one */
  openclawVersion?: string;
}

export type ReplayDefaultsResponse = Omit<ResolvedReplaySettings, 'versionChoice'> & {
  /** the release line's profile and what it changes */
  profile: { line: string; changes: string[] };
};

export async function replayDefaults(request: ReplayDefaultsRequest): Promise<ReplayDefaultsResponse> {
  const { loaded } = await openReplaySession(request.sessionPath);
  const resolved = await resolveReplaySettings({
    session: loaded,
    ...(request.stateDir ? { stateDir: request.stateDir } : {}),
    ...(request.openclawVersion ? { overrides: { openclawVersion: request.openclawVersion } } : {}),
  });
  const profile = openClawVersionProfile(resolved.settings.openclawVersion);
  // the form reads the sources; the choice's per-turn releases are for a replay
  const { versionChoice: _choice, ...answer } = resolved;
  return { ...answer, profile: { line: profile.line, changes: profile.changes } };
}

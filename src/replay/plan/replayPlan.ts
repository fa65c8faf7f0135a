/**
 * One replay plan, whoever asks: the CLI (`replay`, `compare`, `replay --follow`), the bridge's replay service and
 * every session of a batch turn their request (src/bridge ReplayRequest: lanes as CLI specs or as data, settings
 * overrides, flags) into this plan, and replay exactly it. The plan holds the session's settings with where each came
 * from (a flag, openclaw.json, the session model, the release), the lanes built on them, plugin loading with the
 * caller's consent, and the progress total (root lanes × turns of the session's active branch).
 */
import { resolve } from 'node:path';
import type { ReplayRequest } from '../../bridge';
import { getActivePath, type LoadedSession } from '../../transcripts';
import { laneConfigOf } from '../lane/laneConfigFromSpec';
import { laneOfRequest, parseHostSpec, type HostSpec, type ParsedLaneSpec } from '../lane/laneSpec';
import { openClawVersionProfile } from '../lane/openclawVersion';
import type { PluginLoadingOptions, ReplayLaneConfig, ReplayOptions } from '../lane/replayTypes';
import { splitSessionTurns } from '../session/sessionTurns';
import {
  resolveReplaySettings,
  settingSourcesOf,
  type ReplaySettingsOverrides,
  type ResolvedReplaySettings,
} from '../settings/resolveReplaySettings';

export type { ReplayRequest };

/** What a request asks for, checked before any session is read: its lanes, its host, its release. */
export interface CheckedReplayRequest {
  request: ReplayRequest;
  lanes: ParsedLaneSpec[];
  host?: HostSpec;
}

export interface ReplayPlan {
  /** the settings every lane starts from, with each one's source (and the openclaw.json read) */
  settings: ResolvedReplaySettings;
  lanes: ReplayLaneConfig[];
  /** root lane-turns the replay will run: lanes × user turns of the session's active branch */
  total: number;
  /** what replaySession takes besides the session, the signal and the callers' hooks */
  options: Omit<ReplayOptions, 'session'>;
}

/**
 * The request's lanes, host and release, each checked: throws a LaneSpecError (lanes, host) or the version
 * profile's error naming what is wrong, so a front end can refuse the request before it reads anything.
 */
export function checkReplayRequest(request: ReplayRequest): CheckedReplayRequest {
  const lanes = request.lanes.map((lane) => laneOfRequest(lane));
  const host = request.host !== undefined ? parseHostSpec(request.host, 'host') : undefined;
  if (request.openclawVersion !== undefined) openClawVersionProfile(request.openclawVersion); // throws when unknown
  return { request, lanes, ...(host ? { host } : {}) };
}

/** The request's settings flags as overrides of what the session's state dir and release say. */
export function settingsOverridesOf(request: ReplayRequest): ReplaySettingsOverrides {
  return {
    ...(request.window !== undefined ? { contextWindow: request.window } : {}),
    ...(request.reserve !== undefined ? { reserveTokens: request.reserve } : {}),
    ...(request.keepRecentTokens !== undefined ? { keepRecentTokens: request.keepRecentTokens } : {}),
    ...(request.compactionMode !== undefined ? { compactionMode: request.compactionMode } : {}),
    ...(request.openclawVersion !== undefined ? { openclawVersion: request.openclawVersion } : {}),
  };
}

/** Root lane-turns of a replay of `session`: the replay advances by the turns of the active branch only. */
export function activeBranchTurns(session: LoadedSession): number {
  return splitSessionTurns(getActivePath(session)).turns.length;
}

/**
 * The plan of replaying `session` as `request` asks, with `plugins` (consent, transport, discovery) from the caller:
 * the settings resolved once from the state dir's openclaw.json and the release, the flags over them.
 */
export async function buildReplayPlan(
  session: LoadedSession,
  asked: ReplayRequest | CheckedReplayRequest,
  plugins: PluginLoadingOptions,
): Promise<ReplayPlan> {
  const { request, lanes: parsed, host } = 'request' in asked ? asked : checkReplayRequest(asked);
  const stateDir = request.stateDir !== undefined ? resolve(request.stateDir) : undefined;
  const settings = await resolveReplaySettings({
    session,
    ...(stateDir ? { stateDir } : {}),
    overrides: settingsOverridesOf(request),
  });
  const s = settings.settings;
  const lanes = parsed.map((lane) =>
    laneConfigOf(lane, {
      contextWindow: s.contextWindow,
      reserveTokens: s.reserveTokens,
      keepRecentTokens: s.keepRecentTokens,
      ...(s.reserveTokensFloor !== null ? { reserveTokensFloor: s.reserveTokensFloor } : {}),
      compactionEnabled: s.compactionEnabled,
      ...(host ? { host } : {}),
    }),
  );
  return {
    settings,
    lanes,
    total: lanes.length * activeBranchTurns(session),
    options: {
      lanes,
      ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
      honourRecordedCompactions: request.honourRecordedCompactions === true,
      checkDeterminism: request.checkDeterminism === true,
      openclawVersion: s.openclawVersion,
      openclawVersionChoice: settings.versionChoice,
      settingSources: settingSourcesOf(settings),
      ...(request.driftThreshold !== undefined ? { driftThreshold: request.driftThreshold } : {}),
      replaySubagents: request.replaySubagents !== false,
      plugins: {
        ...plugins,
        ...(stateDir ? { stateDir } : {}),
        ...(request.callTimeoutMs !== undefined ? { callTimeoutMs: request.callTimeoutMs } : {}),
      },
    },
  };
}

/**
 * The settings a replay of a session uses by default — the ones OpenClaw used: the session's OpenClaw release
 * (inferred), the state dir's `openclaw.json` (`agents.defaults.compaction`, the session model's context window),
 * else the release's defaults — each overridable, with where every value came from.
 */
import type { LoadedSession } from '../../transcripts';
import {
  DEFAULT_COMPACTION_KEEP_RECENT_TOKENS,
  DEFAULT_COMPACTION_RESERVE_TOKENS,
  resolveCompactionSettings,
} from '../../runtime';
import { DEFAULT_CONTEXT_TOKEN_BUDGET } from '../../tokens';
import { openClawVersionProfile } from '../lane/openclawVersion';
import { sessionModel } from '../session/sessionLookups';
import { chooseOpenClawVersion, type VersionChoice, type VersionChoiceHow } from './inferOpenClawVersion';
import { configuredContextWindow, readOpenClawJson, type OpenClawJsonFacts } from './openclawJson';
import { stateDirOfSession } from './sessionStateDir';

export type SettingSource = 'flag' | 'openclaw.json' | 'session model' | 'version default';
export type CompactionMode = 'default' | 'safeguard';

export interface ReplaySettings {
  openclawVersion: string;
  contextWindow: number;
  /** the configured reserve before the release's floor/cap */
  reserveTokens: number;
  /** null: the release's floor (20000) */
  reserveTokensFloor: number | null;
  keepRecentTokens: number;
  compactionMode: CompactionMode;
  compactionEnabled: boolean;
  /** `provider/modelId` the session ran with, or null */
  model: string | null;
}

export type ReplaySettingsOverrides = Partial<Omit<ReplaySettings, 'model' | 'reserveTokensFloor'>> & {
  reserveTokensFloor?: number;
};

export interface ResolvedReplaySettings {
  settings: ReplaySettings;
  sources: { [K in Exclude<keyof ReplaySettings, 'openclawVersion'>]: SettingSource } & {
    openclawVersion: VersionChoiceHow;
  };
  /** for an inferred version: where it came from */
  openclawVersionFrom?: string;
  /** the release choice whole (with the releases per turn when the session's runs record several): what a replay uses */
  versionChoice: VersionChoice;
  /** the reserve and prompt budget the release derives from these settings at this window */
  effective: { reserveTokens: number; promptBudget: number };
  /** the openclaw.json read, or null */
  configPath: string | null;
  /** what a person should know (ignored keys, unfollowed includes, …) */
  notes: string[];
}

export interface ResolveReplaySettingsInput {
  session: LoadedSession;
  /** the state dir whose openclaw.json applies (default: the one the session's path lies in) */
  stateDir?: string;
  overrides?: ReplaySettingsOverrides;
}

/**
 * The flag, else openclaw.json's value, else the release's. A flag equal to what openclaw.json or the release
 * says keeps their source: the app's form sends back the defaults it was filled with (replay.defaults), and a value
 * a request only repeats did not come from it.
 */
function pick<T>(flag: T | undefined, config: T | undefined, fallback: T): { value: T; source: SettingSource } {
  const unflagged = config !== undefined ? { value: config, source: 'openclaw.json' as const } : null;
  const base = unflagged ?? { value: fallback, source: 'version default' as const };
  return flag !== undefined && flag !== base.value ? { value: flag, source: 'flag' } : base;
}

function positiveInt(value: number | undefined): number | undefined {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : undefined;
}

function modeOf(config: OpenClawJsonFacts | null): CompactionMode | undefined {
  const c = config?.compaction;
  if (!c) return undefined;
  if (c.provider !== undefined) return 'safeguard'; // a provider forces safeguard (resolveEffectiveCompactionMode)
  if (c.mode === 'safeguard' || c.mode === 'default') return c.mode;
  return undefined;
}

function contextWindowOf(
  flag: number | undefined,
  config: OpenClawJsonFacts | null,
  model: { provider: string; modelId: string } | null,
): { value: number; source: SettingSource } {
  const configured = config && model ? configuredContextWindow(config.raw, model) : undefined;
  return pick(flag, configured, DEFAULT_CONTEXT_TOKEN_BUDGET);
}

export async function resolveReplaySettings(input: ResolveReplaySettingsInput): Promise<ResolvedReplaySettings> {
  const { session, overrides = {} } = input;
  const stateDir = input.stateDir ?? stateDirOfSession(session);
  const config = stateDir ? readOpenClawJson(stateDir) : null;
  const notes: string[] = [];
  if (config?.hasIncludes) notes.push(`${config.path} uses $include; values in included files are not read.`);
  const lastTouched = config?.lastTouchedVersion ? { lastTouchedVersion: config.lastTouchedVersion } : {};
  const inferred = await chooseOpenClawVersion({ session, ...lastTouched });
  // as for the other settings: a requested release equal to the inferred one keeps how it was found
  const requested = overrides.openclawVersion;
  const choice =
    requested !== undefined && requested.trim() !== inferred.version
      ? await chooseOpenClawVersion({ requested, session, ...lastTouched })
      : inferred;
  const profile = openClawVersionProfile(choice.version);
  const model = sessionModel(session);
  const c = config?.compaction ?? {};
  const reserveFromConfig = profile.configReserveKeys ? c.reserveTokens : undefined;
  const floorFromConfig = profile.configReserveKeys ? c.reserveTokensFloor : undefined;
  if (!profile.configReserveKeys && (c.reserveTokens !== undefined || c.reserveTokensFloor !== undefined)) {
    notes.push(
      `${config!.path} sets agents.defaults.compaction.reserveTokens/reserveTokensFloor; OpenClaw ${profile.version} ignores them (retired keys).`,
    );
  }
  const contextWindow = contextWindowOf(positiveInt(overrides.contextWindow), config, model);
  const reserve = pick(overrides.reserveTokens, reserveFromConfig, DEFAULT_COMPACTION_RESERVE_TOKENS);
  const floor = pick<number | null>(overrides.reserveTokensFloor, floorFromConfig, null);
  const keep = pick(
    positiveInt(overrides.keepRecentTokens),
    positiveInt(c.keepRecentTokens),
    DEFAULT_COMPACTION_KEEP_RECENT_TOKENS,
  );
  const mode = pick<CompactionMode>(overrides.compactionMode, modeOf(config), 'default');
  const enabled = pick(overrides.compactionEnabled, c.enabled, true);
  const resolved = resolveCompactionSettings({
    contextTokenBudget: contextWindow.value,
    reserveTokens: reserve.value,
    ...(floor.value !== null ? { reserveTokensFloor: floor.value } : {}),
    reserveRule: profile.reserveRule,
  });
  return {
    settings: {
      openclawVersion: choice.version,
      contextWindow: contextWindow.value,
      reserveTokens: reserve.value,
      reserveTokensFloor: floor.value,
      keepRecentTokens: keep.value,
      compactionMode: mode.value,
      compactionEnabled: enabled.value,
      model: model ? `${model.provider}/${model.modelId}` : null,
    },
    sources: {
      openclawVersion: choice.how,
      contextWindow: contextWindow.source,
      reserveTokens: reserve.source,
      reserveTokensFloor: floor.source,
      keepRecentTokens: keep.source,
      compactionMode: mode.source,
      compactionEnabled: enabled.source,
      model: 'session model',
    },
    ...(choice.from ? { openclawVersionFrom: choice.from } : {}),
    versionChoice: choice,
    effective: {
      reserveTokens: resolved.reserveTokens,
      promptBudget: Math.max(1, contextWindow.value - resolved.reserveTokens),
    },
    configPath: config?.path ?? null,
    notes,
  };
}

/** What a recording keeps of the resolution: each setting's source, and the openclaw.json read. */
export function settingSourcesOf(resolved: ResolvedReplaySettings): Record<string, string> {
  return {
    ...resolved.sources,
    ...(resolved.configPath ? { configPath: resolved.configPath } : {}),
  };
}

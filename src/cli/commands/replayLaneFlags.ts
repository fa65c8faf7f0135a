/**
 * The settings and lane flags of `replay` (and `compare`): --window/--context-window, --reserve/--reserve-tokens,
 * --keep-recent-tokens, --compaction-mode, --openclaw-version, as overrides of what the session's state dir and
 * release say (resolveReplaySettings), and the lanes built from them.
 */
import { resolve } from 'node:path';
import {
  laneConfigFromSpec,
  LaneSpecError,
  parseHostSpec,
  parseMegabytes,
  resolveReplaySettings,
  type HostSpec,
  type ReplayLaneConfig,
  type ReplaySettings,
  type ReplaySettingsOverrides,
  type ResolvedReplaySettings,
} from '../../replay';
import type { LoadedSession } from '../../transcripts';
import { errorMessage } from '../../common/errorText';

export interface ReplayCliOptions {
  lane: string[];
  /** absent: the session model's window in openclaw.json, else 200000 */
  window?: string;
  /** the same as --window */
  contextWindow?: string;
  reserve?: string;
  /** the same as --reserve */
  reserveTokens?: string;
  keepRecentTokens?: string;
  compactionMode?: string;
  host?: string;
  json?: string;
  /** stream turn records as NDJSON to stdout */
  ndjson?: boolean;
  html?: string;
  allowExecute?: boolean;
  honourRecordedCompactions?: boolean;
  checkDeterminism?: boolean;
  openclawVersion?: string;
  drift?: string;
  systemPrompt?: string;
  stateDir?: string;
  workspace?: string;
  node?: string;
  callTimeout?: string;
  /** the largest engine result taken from an engine host, in MB (--max-result-mb) */
  maxResultMb?: string;
  subagents: boolean;
  failOn?: string;
  progress: boolean;
  session?: string;
  agent?: string;
  follow?: boolean;
  againstTrajectory?: boolean;
}

export class CliUsageError extends Error {}

export function positiveInt(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) <= 0) {
    throw new CliUsageError(`${flag} ${value}: give a positive whole number of tokens, e.g. ${flag} 32000`);
  }
  return Number(value);
}

/** `--max-result-mb` as the plugin-loading option it sets (none when absent). */
export function pluginLimitsFromCli(options: Pick<ReplayCliOptions, 'maxResultMb'>): { maxResultBytes?: number } {
  if (options.maxResultMb === undefined) return {};
  try {
    return { maxResultBytes: parseMegabytes(options.maxResultMb, '--max-result-mb') };
  } catch (error) {
    throw new CliUsageError(errorMessage(error));
  }
}

/** The replay options every command that replays accepts. */
function wholeTokens(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()))
    throw new CliUsageError(`${flag} ${value}: give a whole number of tokens, e.g. ${flag} 16384`);
  return Number(value);
}

/** The settings flags as overrides of what the session's state dir and release say. */
export function settingsOverridesFromCli(options: ReplayCliOptions): ReplaySettingsOverrides {
  if (options.window !== undefined && options.contextWindow !== undefined)
    throw new CliUsageError('Give --window or --context-window, not both.');
  if (options.reserve !== undefined && options.reserveTokens !== undefined)
    throw new CliUsageError('Give --reserve or --reserve-tokens, not both.');
  const window = options.window ?? options.contextWindow;
  const reserve = options.reserve ?? options.reserveTokens;
  const mode = options.compactionMode;
  if (mode !== undefined && mode !== 'default' && mode !== 'safeguard')
    throw new CliUsageError(`--compaction-mode ${mode}: give default or safeguard`);
  return {
    ...(window !== undefined
      ? { contextWindow: positiveInt(window, options.window ? '--window' : '--context-window') }
      : {}),
    ...(reserve !== undefined
      ? { reserveTokens: wholeTokens(reserve, options.reserve ? '--reserve' : '--reserve-tokens') }
      : {}),
    ...(options.keepRecentTokens !== undefined
      ? { keepRecentTokens: positiveInt(options.keepRecentTokens, '--keep-recent-tokens') }
      : {}),
    ...(mode !== undefined ? { compactionMode: mode } : {}),
    ...(options.openclawVersion !== undefined ? { openclawVersion: options.openclawVersion } : {}),
  };
}

export function buildLaneConfigs(
  options: Pick<
    ReplayCliOptions,
    'lane' | 'window' | 'contextWindow' | 'reserve' | 'reserveTokens' | 'keepRecentTokens' | 'host' | 'compactionMode'
  >,
  settings?: ReplaySettings,
): ReplayLaneConfig[] {
  const flags = settingsOverridesFromCli(options as ReplayCliOptions);
  const contextWindow = flags.contextWindow ?? settings?.contextWindow ?? 200_000;
  const reserveTokens = flags.reserveTokens ?? settings?.reserveTokens;
  const keepRecentTokens = flags.keepRecentTokens ?? settings?.keepRecentTokens;
  let host: HostSpec | undefined;
  if (options.host !== undefined) {
    try {
      host = parseHostSpec(options.host, '--host');
    } catch (error) {
      throw new CliUsageError((error as Error).message);
    }
  }
  const specs = options.lane.length > 0 ? options.lane : ['legacy'];
  return specs.map((spec) => {
    try {
      return laneConfigFromSpec(spec, {
        contextWindow,
        ...(reserveTokens !== undefined ? { reserveTokens } : {}),
        ...(keepRecentTokens !== undefined ? { keepRecentTokens } : {}),
        ...(settings?.reserveTokensFloor !== undefined && settings.reserveTokensFloor !== null
          ? { reserveTokensFloor: settings.reserveTokensFloor }
          : {}),
        ...(settings ? { compactionEnabled: settings.compactionEnabled } : {}),
        ...(host ? { host } : {}),
      });
    } catch (error) {
      if (error instanceof LaneSpecError) throw new CliUsageError(error.message);
      throw error;
    }
  });
}

/** What the session's state dir (or --state-dir) and release say, with the flags applied. */
export async function resolveCliSettings(
  session: LoadedSession,
  options: ReplayCliOptions,
): Promise<ResolvedReplaySettings> {
  try {
    return await resolveReplaySettings({
      session,
      ...(options.stateDir ? { stateDir: resolve(options.stateDir) } : {}),
      overrides: settingsOverridesFromCli(options),
    });
  } catch (error) {
    throw new CliUsageError(errorMessage(error));
  }
}

/**
 * The flags of `replay` (and `compare`, `replay --all`) as the replay request every front end shares
 * (src/bridge ReplayRequest; src/replay/plan builds the plan from it): --lane, --window/--context-window,
 * --reserve/--reserve-tokens, --keep-recent-tokens, --compaction-mode, --openclaw-version, --host, --state-dir, …
 * as overrides of what the session's state dir and release say; and plugin loading (--allow-execute, --workspace,
 * --node, --max-result-mb). Every flag value is checked here, before a session is read.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  checkReplayRequest,
  parseMegabytes,
  type CheckedReplayRequest,
  type PluginLoadingOptions,
  type ReplayRequest,
} from '../../replay';
import { errorMessage } from '../../common/errorText';
import { parseMilliseconds } from './parseMs';

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
function pluginLimitsFromCli(options: Pick<ReplayCliOptions, 'maxResultMb'>): { maxResultBytes?: number } {
  if (options.maxResultMb === undefined) return {};
  try {
    return { maxResultBytes: parseMegabytes(options.maxResultMb, '--max-result-mb') };
  } catch (error) {
    throw new CliUsageError(errorMessage(error));
  }
}

function wholeTokens(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()))
    throw new CliUsageError(`${flag} ${value}: give a whole number of tokens, e.g. ${flag} 16384`);
  return Number(value);
}

/** The settings flags: each given once (under either name), each a number of tokens or a known mode. */
function settingsFlags(
  options: ReplayCliOptions,
): Pick<ReplayRequest, 'window' | 'reserve' | 'keepRecentTokens' | 'compactionMode'> {
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
    ...(window !== undefined ? { window: positiveInt(window, options.window ? '--window' : '--context-window') } : {}),
    ...(reserve !== undefined
      ? { reserve: wholeTokens(reserve, options.reserve ? '--reserve' : '--reserve-tokens') }
      : {}),
    ...(options.keepRecentTokens !== undefined
      ? { keepRecentTokens: positiveInt(options.keepRecentTokens, '--keep-recent-tokens') }
      : {}),
    ...(mode !== undefined ? { compactionMode: mode } : {}),
  };
}

function driftOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const drift = Number(value);
  if (!Number.isFinite(drift) || drift < 0)
    throw new CliUsageError(`--drift ${value}: give a non-negative fraction, e.g. --drift 0.5`);
  return drift;
}

function systemPromptOf(file: string | undefined): string | undefined {
  if (!file) return undefined;
  try {
    return readFileSync(resolve(file), 'utf8');
  } catch (error) {
    throw new CliUsageError(`--system-prompt: cannot read ${resolve(file)}: ${errorMessage(error)}`);
  }
}

/**
 * The replay request the flags describe, its lanes, host and release checked (CliUsageError saying which flag or
 * lane is wrong), before any session is read.
 */
export function replayRequestFromCli(options: ReplayCliOptions): CheckedReplayRequest {
  const drift = driftOf(options.drift);
  const callTimeoutMs = parseMilliseconds('--call-timeout', options.callTimeout, CliUsageError);
  const systemPrompt = systemPromptOf(options.systemPrompt);
  const request: ReplayRequest = {
    lanes: options.lane.length > 0 ? options.lane : ['legacy'],
    ...settingsFlags(options),
    ...(options.openclawVersion !== undefined ? { openclawVersion: options.openclawVersion } : {}),
    ...(options.host !== undefined ? { host: options.host } : {}),
    ...(options.stateDir ? { stateDir: resolve(options.stateDir) } : {}),
    honourRecordedCompactions: options.honourRecordedCompactions === true,
    checkDeterminism: options.checkDeterminism === true,
    ...(drift !== undefined ? { driftThreshold: drift } : {}),
    ...(callTimeoutMs !== undefined ? { callTimeoutMs } : {}),
    ...(systemPrompt !== undefined ? { systemPrompt } : {}),
    replaySubagents: options.subagents !== false,
  };
  try {
    return checkReplayRequest(request);
  } catch (error) {
    throw new CliUsageError(errorMessage(error));
  }
}

/** How plugin lanes load for the command: --allow-execute, discovery folders, the engine host's Node and limits. */
export function pluginsFromCli(options: ReplayCliOptions): PluginLoadingOptions {
  return {
    allowExecute: options.allowExecute === true,
    ...(options.workspace ? { workspaceDir: resolve(options.workspace) } : {}),
    ...(options.node ? { nodePath: options.node } : {}),
    ...pluginLimitsFromCli(options),
  };
}

/**
 * ContextScope's side of a differential run: the session real OpenClaw wrote, replayed through ContextScope with
 * that version's profile, one lane configured as the scenario configured OpenClaw (legacy, or the same plugin).
 */
import fs from 'node:fs';
import path from 'node:path';
import { replaySession, type Recording, type ReplayLaneConfig } from '../../src/replay';
import { loadSession, type LoadedSession } from '../../src/transcripts';
import type { CollectedRun } from './collect';
import { SESSION_ID } from './runOpenClaw';
import { PLUGIN_DIR, type Scenario } from './scenario';

export const CONTEXTSCOPE_ENGINE_LOG = 'contextscope-engine-calls.jsonl';
/** The replay's lane folders, kept beside the run (replaySession removes only a folder it made itself). */
const REPLAY_DIR = 'contextscope-replay';

/**
 * Where the plugin's log of the replay's engine calls is: the engine host runs confined (as in the app) and may write
 * only its lane's folders, so the plugin is given a relative `logFile`, which it resolves against its working
 * directory, the lane's workspace (the only lane under the replay's folder).
 */
function replayEngineLog(run: CollectedRun): string | undefined {
  const replayDir = path.join(run.stateDir, REPLAY_DIR);
  const [lane] = fs.existsSync(replayDir) ? fs.readdirSync(replayDir) : [];
  return lane === undefined ? undefined : path.join(replayDir, lane, 'workspace', CONTEXTSCOPE_ENGINE_LOG);
}

function laneFor(scenario: Scenario): ReplayLaneConfig {
  const compaction = scenario.compaction ?? {};
  const num = (key: string) => (typeof compaction[key] === 'number' ? (compaction[key] as number) : undefined);
  const base = {
    contextWindow: scenario.window,
    ...(num('reserveTokens') !== undefined ? { reserveTokens: num('reserveTokens') } : {}),
    ...(num('keepRecentTokens') !== undefined ? { keepRecentTokens: num('keepRecentTokens') } : {}),
  };
  if (!scenario.plugin) return { ...base, engine: { kind: 'legacy' } };
  return {
    ...base,
    engine: {
      kind: 'plugin',
      plugin: path.join(PLUGIN_DIR, scenario.plugin.name),
      pluginConfig: { ...scenario.plugin.config, logFile: CONTEXTSCOPE_ENGINE_LOG },
    },
  };
}

export function loadRunSession(run: CollectedRun): Promise<LoadedSession> {
  return loadSession({ stateDir: run.stateDir, session: SESSION_ID });
}

/** The system prompt OpenClaw sent with the first request (the replay cannot build OpenClaw's own). */
function sentSystemPrompt(run: CollectedRun): string {
  const first = run.requests.find((r) => r.kind === 'turn');
  const system = first?.body.messages.find((m) => m.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

export async function replayCollected(run: CollectedRun, session: LoadedSession): Promise<Recording> {
  const workDir = path.join(run.stateDir, REPLAY_DIR);
  fs.rmSync(workDir, { recursive: true, force: true });
  return replaySession({
    session,
    lanes: [laneFor(run.scenario)],
    workDir,
    openclawVersion: run.version,
    systemPrompt: sentSystemPrompt(run),
    transcriptFiles: 'write',
    plugins: { allowExecute: true },
    // the plugin logs its own calls; a marker after each turn splits that log by turn
    onTurn: (record) => {
      const engineLog = run.scenario.plugin ? replayEngineLog(run) : undefined;
      if (engineLog) fs.appendFileSync(engineLog, `${JSON.stringify({ turnEnd: record.turn })}\n`);
    },
  });
}

/** The replay's engine calls per turn, from the plugin's own log (split at the turn markers). */
export function replayedEngineCalls(run: CollectedRun, turns: number): string[][] {
  const out = Array.from({ length: turns }, (): string[] => []);
  const file = replayEngineLog(run);
  if (!file || !fs.existsSync(file)) return out;
  let turn = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { turnEnd?: number; method?: string };
    if (typeof entry.turnEnd === 'number') turn = entry.turnEnd + 1;
    else if (entry.method && turn < turns) out[turn]!.push(entry.method);
  }
  return out;
}

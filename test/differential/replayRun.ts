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

function laneFor(scenario: Scenario, stateDir: string): ReplayLaneConfig {
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
      pluginConfig: { ...scenario.plugin.config, logFile: path.join(stateDir, CONTEXTSCOPE_ENGINE_LOG) },
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
  const engineLog = path.join(run.stateDir, CONTEXTSCOPE_ENGINE_LOG);
  fs.rmSync(engineLog, { force: true });
  fs.rmSync(`${engineLog}.state.json`, { force: true });
  return replaySession({
    session,
    lanes: [laneFor(run.scenario, run.stateDir)],
    openclawVersion: run.version,
    systemPrompt: sentSystemPrompt(run),
    transcriptFiles: 'write',
    plugins: { allowExecute: true },
    // the plugin logs its own calls; a marker after each turn splits that log by turn
    onTurn: (record) => {
      if (run.scenario.plugin) fs.appendFileSync(engineLog, `${JSON.stringify({ turnEnd: record.turn })}\n`);
    },
  });
}

/** The replay's engine calls per turn, from the plugin's own log (split at the turn markers). */
export function replayedEngineCalls(run: CollectedRun, turns: number): string[][] {
  const out = Array.from({ length: turns }, (): string[] => []);
  const file = path.join(run.stateDir, CONTEXTSCOPE_ENGINE_LOG);
  if (!fs.existsSync(file)) return out;
  let turn = 0;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const entry = JSON.parse(line) as { turnEnd?: number; method?: string };
    if (typeof entry.turnEnd === 'number') turn = entry.turnEnd + 1;
    else if (entry.method && turn < turns) out[turn]!.push(entry.method);
  }
  return out;
}

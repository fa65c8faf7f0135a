/**
 * A differential scenario, as data (`scenarios/*.json`): the turns a user sends, the scripted model's replies per
 * tool-call round, the workspace files tools read, the model window and the OpenClaw config it runs under.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface ScenarioToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScenarioReply {
  text?: string;
  /** the text is sent this many times over (large replies without large scenario files) */
  repeat?: number;
  toolCalls?: ScenarioToolCall[];
  /** why the text reply ended (`finish_reason`): `stop` (default) or `length`, the output cap reached */
  finish?: 'stop' | 'length';
}

export interface ScenarioTurn {
  message: string;
  /** one reply per model request of the turn: tool-call rounds first, the final text last */
  replies: ScenarioReply[];
}

export interface ScenarioPlugin {
  /** folder under test/differential/plugins */
  name: string;
  /** plugins.entries.<id>.config */
  config?: Record<string, unknown>;
}

export interface Scenario {
  id: string;
  description: string;
  /** the model's context window and max output tokens */
  window: number;
  maxTokens?: number;
  /** agents.defaults.compaction */
  compaction?: Record<string, unknown>;
  /** files written into the agent workspace before the first turn: name → text, or {line, times} repeated */
  workspaceFiles?: Record<string, string | { line: string; times: number }>;
  plugin?: ScenarioPlugin;
  heartbeat?: { prompt: string };
  subagentReply?: ScenarioReply;
  turns: ScenarioTurn[];
  /** releases this scenario runs on (default: differential.ts FULL_MATRIX) */
  versions?: string[];
  /**
   * differences that are known and explained (README's fidelity section): `<version>` → `<turn>:<field>` list;
   * the runner counts them as expected, and fails when one stops happening
   */
  knownMismatches?: Record<string, string[]>;
}

export const SCENARIO_DIR = path.join(import.meta.dirname, 'scenarios');
export const PLUGIN_DIR = path.join(import.meta.dirname, 'plugins');

function check(condition: unknown, file: string, what: string): asserts condition {
  if (!condition) throw new Error(`Scenario ${file}: ${what}`);
}

export function readScenario(file: string): Scenario {
  const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
  const s = raw as Scenario;
  const name = path.basename(file);
  check(typeof s.id === 'string' && s.id === path.basename(file, '.json'), name, 'id must equal the file name');
  check(Number.isInteger(s.window) && s.window > 0, name, '"window" must be a positive integer');
  check(Array.isArray(s.turns) && s.turns.length > 0, name, '"turns" must be a non-empty array');
  s.turns.forEach((t, i) => {
    check(typeof t.message === 'string' && t.message.length > 0, name, `turns[${i}].message must be a string`);
    check(Array.isArray(t.replies) && t.replies.length > 0, name, `turns[${i}].replies must be a non-empty array`);
  });
  return s;
}

export function listScenarios(dir = SCENARIO_DIR): Scenario[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => readScenario(path.join(dir, f)));
}

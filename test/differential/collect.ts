/**
 * Runs a scenario on a real OpenClaw version once and keeps what it wrote in `<out>/<scenario>/<version>/` (its
 * state dir: sessions, trajectory, the scripted model's `requests.jsonl`, the plugin's `engine-calls.jsonl`,
 * `turns.json`). A finished run (`done.json`) is reused when asked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureOpenClaw } from './openclawInstall';
import { runScenarioOnOpenClaw, type OpenClawRun } from './runOpenClaw';
import type { Scenario } from './scenario';
import type { LoggedRequest } from './scriptedModel';

export interface CollectedRun extends OpenClawRun {
  version: string;
  scenario: Scenario;
  ms: number;
}

function readLines<T>(file: string): T[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

export async function collectRun(
  scenario: Scenario,
  version: string,
  outDir: string,
  options: { reuse?: boolean; log?: (line: string) => void } = {},
): Promise<CollectedRun> {
  const stateDir = path.join(outDir, scenario.id, version);
  const done = path.join(stateDir, 'done.json');
  if (options.reuse && fs.existsSync(done)) {
    const meta = JSON.parse(fs.readFileSync(done, 'utf8')) as { ms: number };
    return {
      version,
      scenario,
      ms: meta.ms,
      stateDir,
      workspace: path.join(stateDir, 'workspace'),
      requests: readLines<LoggedRequest>(path.join(stateDir, 'requests.jsonl')),
      turns: JSON.parse(fs.readFileSync(path.join(stateDir, 'turns.json'), 'utf8')) as OpenClawRun['turns'],
      engineCalls: readLines<Record<string, unknown>>(path.join(stateDir, 'engine-calls.jsonl')),
    };
  }
  const install = ensureOpenClaw(version, options.log);
  fs.rmSync(stateDir, { recursive: true, force: true });
  const started = Date.now();
  options.log?.(`${scenario.id} on ${version}: ${scenario.turns.length} turns`);
  const run = await runScenarioOnOpenClaw(install, scenario, stateDir);
  const ms = Date.now() - started;
  fs.writeFileSync(done, JSON.stringify({ ms, version, scenario: scenario.id }));
  return { ...run, version, scenario, ms };
}

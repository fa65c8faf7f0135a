/**
 * What a recorded run of real OpenClaw depends on, as one hash kept beside the fixture (`inputs.json`): the release,
 * the scenario file, the runner files that decide what OpenClaw is given (its config, the scripted model's replies)
 * and, for plugin scenarios, every file of the plugin. The same scenario on the same release with the same inputs
 * writes the same session, so a fixture whose stored hash differs from today's was recorded for something else and
 * must be recorded again (`npm run differential -- --record --scenario <id> --version <v>`).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PLUGIN_DIR, SCENARIO_DIR, type Scenario } from './scenario';

export const INPUTS_FILE = 'inputs.json';

/** Runner files whose content changes what OpenClaw receives (not how ContextScope compares: that runs every time). */
export const RUNNER_FILES = ['runOpenClaw.ts', 'scriptedModel.ts'].map((name) => path.join(import.meta.dirname, name));

/** Scenario fields that only say how to compare or describe: editing them needs no new run of OpenClaw. */
const COMPARISON_ONLY = new Set(['description', 'knownMismatches', 'versions']);

export interface RecordedInputs {
  version: string;
  scenario: string;
  /** sha256 of everything below, in order */
  sha256: string;
  /** each input's sha256, by a path relative to test/differential (to name what changed) */
  files: Record<string, string>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

export function recordedInputs(scenario: Scenario, version: string): RecordedInputs {
  const file = path.join(SCENARIO_DIR, `${scenario.id}.json`);
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const given = Object.fromEntries(Object.entries(raw).filter(([key]) => !COMPARISON_ONLY.has(key)));
  const files: Record<string, string> = { [`scenarios/${scenario.id}.json`]: sha256(JSON.stringify(given)) };
  const inputs = [...RUNNER_FILES, ...(scenario.plugin ? filesUnder(path.join(PLUGIN_DIR, scenario.plugin.name)) : [])];
  for (const input of inputs) {
    // line endings normalised: a checkout with CRLF records the same run
    files[
      path
        .relative(import.meta.dirname, input)
        .split(path.sep)
        .join('/')
    ] = sha256(fs.readFileSync(input, 'utf8').replace(/\r\n/g, '\n'));
  }
  const whole = sha256(JSON.stringify({ version, files }));
  return { version, scenario: scenario.id, sha256: whole, files };
}

/** Why a fixture's stored inputs differ from today's, or undefined when they agree. */
export function staleInputs(stored: RecordedInputs | undefined, now: RecordedInputs): string | undefined {
  const again = `record it again: npm run differential -- --record --scenario ${now.scenario} --version ${now.version}`;
  if (!stored) return `no ${INPUTS_FILE} beside the recorded run; ${again}`;
  if (stored.sha256 === now.sha256) return undefined;
  const names = new Set([...Object.keys(stored.files), ...Object.keys(now.files)]);
  const changed = [...names].filter((n) => stored.files[n] !== now.files[n]).sort();
  const what = stored.version !== now.version ? [`version ${stored.version} → ${now.version}`] : changed;
  return `recorded for other inputs (changed since: ${what.join(', ')}); ${again}`;
}

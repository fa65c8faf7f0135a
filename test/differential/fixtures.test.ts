/**
 * The sessions real OpenClaw wrote for the differential scenarios (test/fixtures/openclaw-real, every release of the
 * matrix, both storages), compared with ContextScope's replay offline: no OpenClaw install needed, so every change is
 * checked against what OpenClaw really did, in seconds. Same verdict rules as `npm run differential`. The live runs
 * are `npm run differential -- --record`; a fixture recorded for other inputs (scenario, runner, plugin) fails here
 * until it is recorded again, and so does a scenario × release of the matrix that has no recorded run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRun } from './collect';
import { compareCollected, formatTable, matrix } from './differential';
import { FIXTURE_ROOT } from './exportFixture';
import { INPUTS_FILE, recordedInputs, staleInputs, type RecordedInputs } from './recordedInputs';
import { listScenarios, readScenario, SCENARIO_DIR } from './scenario';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-openclaw-real-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const fixtures = fs
  .readdirSync(FIXTURE_ROOT)
  .filter((version) => fs.statSync(path.join(FIXTURE_ROOT, version)).isDirectory())
  .flatMap((version) =>
    fs
      .readdirSync(path.join(FIXTURE_ROOT, version))
      .filter((id) => fs.existsSync(path.join(FIXTURE_ROOT, version, id, 'done.json')))
      .map((id) => ({ version, id })),
  );

/**
 * Scenarios whose every turn has a compiled context, a request on the wire and (plugin) engine calls to compare, on
 * every release: text turns, tool calls and a turn-commit plugin. A comparison that silently stops covering a turn
 * fails here.
 */
const EVERY_TURN_COMPARED = ['plain-text', 'tool-exec-parallel', 'plugin-commit'];

const readInputs = (dir: string): RecordedInputs | undefined =>
  fs.existsSync(path.join(dir, INPUTS_FILE))
    ? (JSON.parse(fs.readFileSync(path.join(dir, INPUTS_FILE), 'utf8')) as RecordedInputs)
    : undefined;

describe('sessions real OpenClaw wrote, replayed by ContextScope', () => {
  it('has a recorded run of every scenario on every release of the matrix, and nothing else', () => {
    const expected = matrix(listScenarios()).map(({ scenario, version }) => `${scenario.id} on ${version}`);
    expect(fixtures.map(({ id, version }) => `${id} on ${version}`).sort()).toEqual(expected.sort());
  });

  it.each(fixtures)('$id on $version was recorded for the scenario, runner and plugin of today', ({ version, id }) => {
    const scenario = readScenario(path.join(SCENARIO_DIR, `${id}.json`));
    const stale = staleInputs(readInputs(path.join(FIXTURE_ROOT, version, id)), recordedInputs(scenario, version));
    expect(stale, `${id} on ${version}`).toBeUndefined();
  });

  it.each(fixtures)(
    '$id on $version: every difference is a known one, and every known one happens',
    async ({ version, id }) => {
      const scenario = readScenario(path.join(SCENARIO_DIR, `${id}.json`));
      const runDir = path.join(work, id, version);
      fs.cpSync(path.join(FIXTURE_ROOT, version, id), runDir, { recursive: true });
      const run = await collectRun(scenario, version, work, { reuse: true });
      const result = { ...(await compareCollected(run)), openclawMs: run.ms };
      const table = formatTable([result]);
      expect(result.error, table).toBeUndefined();
      expect(result.unexpected, table).toEqual([]);
      expect(result.missingKnown, table).toEqual([]);
      expect(result.checks['status'], table).toBe(scenario.turns.length);
      if (EVERY_TURN_COMPARED.includes(id)) {
        expect(result.checks['messages.compiled'], table).toBe(scenario.turns.length);
        expect(result.checks['messages.wire'], table).toBe(scenario.turns.length);
        if (scenario.plugin) expect(result.checks['engineCalls'], table).toBe(scenario.turns.length);
      }
    },
  );
});

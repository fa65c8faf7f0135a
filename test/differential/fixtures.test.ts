/**
 * The recorded runs of real OpenClaw (recordedFixtures.ts) are the matrix and are current: every scenario × release
 * of the matrix has one, and each was recorded for today's inputs (recordedInputs.ts: the scenario, the runner, the
 * plugin). A fixture recorded for other inputs fails here until `npm run differential -- --record` records it again.
 * The replays themselves are fixtures.jsonl.test.ts and fixtures.sqlite.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { matrix } from './differential';
import { FIXTURE_ROOT } from './exportFixture';
import { recordedFixtures } from './recordedFixtures';
import { INPUTS_FILE, recordedInputs, staleInputs, type RecordedInputs } from './recordedInputs';
import { listScenarios, readScenario, SCENARIO_DIR } from './scenario';

const fixtures = recordedFixtures();

const readInputs = (dir: string): RecordedInputs | undefined =>
  fs.existsSync(path.join(dir, INPUTS_FILE))
    ? (JSON.parse(fs.readFileSync(path.join(dir, INPUTS_FILE), 'utf8')) as RecordedInputs)
    : undefined;

describe('the runs real OpenClaw recorded', () => {
  it('cover every scenario on every release of the matrix, and nothing else', () => {
    const expected = matrix(listScenarios()).map(({ scenario, version }) => `${scenario.id} on ${version}`);
    expect(fixtures.map(({ id, version }) => `${id} on ${version}`).sort()).toEqual(expected.sort());
  });

  it.each(fixtures)('$id on $version was recorded for the scenario, runner and plugin of today', ({ version, id }) => {
    const scenario = readScenario(path.join(SCENARIO_DIR, `${id}.json`));
    const stale = staleInputs(readInputs(path.join(FIXTURE_ROOT, version, id)), recordedInputs(scenario, version));
    expect(stale, `${id} on ${version}`).toBeUndefined();
  });
});

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

  // sessions.json names each transcript OpenClaw wrote by an absolute path into the folder the run was recorded in: a
  // transcript the fixture lacks is read from there while that folder lasts, and the replay loses it everywhere else
  // (an entry without a file is a session OpenClaw registered and never wrote, as 2026.5.2's --local subagents)
  it.each(fixtures)('$id on $version keeps every transcript its sessions.json names', ({ version, id }) => {
    const sessions = path.join(FIXTURE_ROOT, version, id, 'agents/main/sessions');
    const store = path.join(sessions, 'sessions.json');
    if (!fs.existsSync(store)) return; // 2026.8+: the sessions are rows of the agent database
    const entries = Object.entries(
      JSON.parse(fs.readFileSync(store, 'utf8')) as Record<string, { sessionFile?: string }>,
    );
    const missing = entries
      .filter(([, entry]) => entry.sessionFile && !fs.existsSync(path.join(sessions, path.basename(entry.sessionFile))))
      .map(([key, entry]) => `${key}: ${path.basename(entry.sessionFile!)}`);
    const again = `record it again: npm run differential -- --record --scenario ${id} --version ${version}`;
    expect(missing, again).toEqual([]);
  });
});

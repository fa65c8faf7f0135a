/**
 * The sessions real OpenClaw wrote for the differential scenarios (test/fixtures/openclaw-real, both versions and
 * storages), compared with ContextScope's replay offline: no OpenClaw install needed, so every change is checked
 * against what OpenClaw really did, in seconds. Same verdict rules as `npm run differential`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collectRun } from './collect';
import { compareCollected, formatTable } from './differential';
import { FIXTURE_ROOT } from './exportFixture';
import { readScenario, SCENARIO_DIR } from './scenario';

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

describe('sessions real OpenClaw wrote, replayed by ContextScope', () => {
  it('has fixtures of both versions', () => {
    expect(new Set(fixtures.map((f) => f.version))).toEqual(new Set(['2026.7.35', '2026.9.6']));
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
    },
  );
});

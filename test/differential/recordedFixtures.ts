/**
 * The runs real OpenClaw recorded for the differential scenarios (test/fixtures/openclaw-real/<version>/<scenario>),
 * and the check the fixture tests apply to each: ContextScope's replay of the session compared turn by turn with what
 * OpenClaw did, by the same verdict rules as `npm run differential`. Shared by fixtures.*.test.ts, which split the
 * releases between files so the replays run side by side.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { collectRun } from './collect';
import { compareCollected, formatTable } from './differential';
import { FIXTURE_ROOT } from './exportFixture';
import { readScenario, SCENARIO_DIR } from './scenario';

export interface RecordedFixture {
  version: string;
  id: string;
}

/** Releases from 2026.8 keep sessions in the agent's SQLite database; earlier ones wrote JSONL transcripts. */
export function isSqliteRelease(version: string): boolean {
  const [year, month] = version.split('.').map(Number);
  return year! > 2026 || month! >= 8;
}

export function recordedFixtures(): RecordedFixture[] {
  return fs
    .readdirSync(FIXTURE_ROOT)
    .filter((version) => fs.statSync(path.join(FIXTURE_ROOT, version)).isDirectory())
    .flatMap((version) =>
      fs
        .readdirSync(path.join(FIXTURE_ROOT, version))
        .filter((id) => fs.existsSync(path.join(FIXTURE_ROOT, version, id, 'done.json')))
        .map((id) => ({ version, id })),
    );
}

/**
 * Scenarios whose every turn has a compiled context (on a release that writes a trajectory: 2026.4 on), a request on
 * the wire and (plugin) engine calls to compare, on every release: text turns, tool calls and a turn-commit plugin. A
 * comparison that silently stops covering a turn fails here.
 */
const EVERY_TURN_COMPARED = ['plain-text', 'tool-exec-parallel', 'plugin-commit'];

/** One test per recorded run of `fixtures`: every difference is a known one, and every known one happens. */
export function itReplaysAsOpenClawDid(fixtures: RecordedFixture[]): void {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-openclaw-real-'));
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
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
        // 2026.3 writes no trajectory: nothing recorded the compiled context to compare with
        const agentDir = path.join(FIXTURE_ROOT, version, id, 'agents/main');
        const trajectory = ['sessions/differential-session.trajectory.jsonl', 'agent/openclaw-agent.sqlite'];
        if (trajectory.some((file) => fs.existsSync(path.join(agentDir, file))))
          expect(result.checks['messages.compiled'], table).toBe(scenario.turns.length);
        expect(result.checks['messages.wire'], table).toBe(scenario.turns.length);
        if (scenario.plugin) expect(result.checks['engineCalls'], table).toBe(scenario.turns.length);
      }
    },
  );
}

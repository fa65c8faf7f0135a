/**
 * The CI subset of `npm run differential`: a few scenarios on both OpenClaw versions, through real OpenClaw
 * (installed from the npm registry into the cache folder on first use) and ContextScope's replay. It fails when
 * the replay diverges from what OpenClaw did in a way the scenario does not list as known, or when a known
 * mismatch stops happening.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTable, runDifferential, VERSIONS, type RunResult } from './differential';
import { listScenarios } from './scenario';

/** Scenarios that run in CI: short, and between them text turns, tool calls and a turn-commit plugin. */
export const CI_SCENARIOS = ['plain-text', 'tool-exec-parallel', 'plugin-commit'];

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-differential-'));
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe('differential fidelity against real OpenClaw (offline, scripted model)', () => {
  let results: RunResult[] = [];

  it('replays what OpenClaw 2026.7.35 and 2026.9.6 did, turn by turn', async () => {
    const scenarios = listScenarios().filter((s) => CI_SCENARIOS.includes(s.id));
    expect(scenarios.map((s) => s.id).sort()).toEqual([...CI_SCENARIOS].sort());
    results = await runDifferential(scenarios, { outDir, versions: VERSIONS, parallel: 2 });
    const report = formatTable(results);
    for (const r of results) {
      expect(r.error, `${r.scenario} ${r.version}\n${report}`).toBeUndefined();
      expect(r.unexpected, `${r.scenario} ${r.version}\n${report}`).toEqual([]);
      expect(r.missingKnown, `${r.scenario} ${r.version}\n${report}`).toEqual([]);
    }
    expect(results).toHaveLength(CI_SCENARIOS.length * VERSIONS.length);
  });

  it('compared every turn on the assembled context and on the wire', () => {
    for (const r of results) {
      expect(r.checks['status'], `${r.scenario} ${r.version}`).toBe(r.turns);
      expect(r.checks['messages.compiled'], `${r.scenario} ${r.version}`).toBe(r.turns);
      expect(r.checks['messages.wire'], `${r.scenario} ${r.version}`).toBe(r.turns);
    }
    const plugin = results.filter((r) => r.scenario === 'plugin-commit');
    expect(plugin.map((r) => r.checks['engineCalls'])).toEqual(plugin.map((r) => r.turns));
  });
});

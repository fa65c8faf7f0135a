/** `contextscope replay --state-dir <dir> --all`: the table, one Recording per session, --json, exit codes. */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { importRecording } from '../../../src/replay';
import type { BatchRow, BatchTotals } from '../../../src/replay/batch';
import { runCli } from '../replay/runCli';
import { tempDir } from '../replay/sessionBuilder';
import { BATCH_WINDOW, writeBatchStateDir, type BatchStateDir } from '../replay/batch/batchStateDir';

let good: BatchStateDir;

beforeAll(async () => {
  good = await writeBatchStateDir({ jsonl: 2, sqlite: 1, turns: 3 });
});

afterEach(() => {
  process.exitCode = undefined;
});

describe('contextscope replay --all', () => {
  it('prints a row per session and a total, writes each Recording, exits 0', async () => {
    const outDir = join(tempDir(), 'out');
    const r = await runCli([
      'replay',
      '--state-dir',
      good.stateDir,
      '--all',
      '--lane',
      'legacy?window=12000&label=small',
      '--window',
      String(BATCH_WINDOW),
      '--keep-recent-tokens',
      '4000',
      '--workers',
      '2',
      '--out-dir',
      outDir,
      '--fail-on',
      'keep-recent-exceeds-budget',
    ]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const files = readdirSync(outDir).sort();
    expect(files).toEqual(good.sessionIds.map((id) => `${id}.recording.json`).sort());
    for (const file of files) importRecording(readFileSync(join(outDir, file), 'utf8'), file);
    const lines = r.out.split('\n');
    expect(lines[0]).toMatch(/^session\s+turns\s+lane\s+compactions\s+tokens\s+saved vs legacy\s+findings\s+time$/);
    for (const key of ['agent:main:s0', 'agent:main:s1', 'agent:ops:q0'])
      expect(lines.find((l) => l.startsWith(key))).toMatch(/\s+small\s+/);
    expect(r.out).toMatch(/^total \(3 sessions, 0 failed\)\s+\d+\s+small\s+/m);
    expect(r.out).toContain(`3 recording(s) in ${outDir} · 2 worker(s)`);
  });

  it('--json - gives the rows and totals; a --fail-on finding in any session exits 1', async () => {
    const outDir = join(tempDir(), 'out');
    const r = await runCli(
      ['replay', '--state-dir', good.stateDir, '--all', '--window', String(BATCH_WINDOW), '--json', '-'].concat([
        '--out-dir',
        outDir,
        '--workers',
        '1',
        '--fail-on',
        'keep-recent-exceeds-budget',
      ]),
    );
    const summary = JSON.parse(r.out) as { rows: BatchRow[]; totals: BatchTotals; workers: number };
    expect(summary.workers).toBe(1);
    expect(summary.rows.map((row) => row.status)).toEqual(['done', 'done', 'done']);
    // keepRecentTokens 20000 is over the 16000 window's prompt budget in every session
    expect(summary.rows.every((row) => row.failing > 0)).toBe(true);
    expect(summary.totals.failing).toBe(summary.rows.reduce((s, row) => s + row.failing, 0));
    expect(summary.rows[0]!.lanes).toMatchObject([{ laneId: 'legacy', baseline: true, added: false }]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/finding\(s\) matched --fail-on keep-recent-exceeds-budget/);
  });

  it('a session that cannot be read is a failed row and exit 3; the others still run', async () => {
    const dir = await writeBatchStateDir({ jsonl: 1, sqlite: 0, turns: 2, broken: true });
    const outDir = join(tempDir(), 'out');
    const r = await runCli(['replay', '--state-dir', dir.stateDir, '--all', '--out-dir', outDir, '--workers', '2']);
    expect(r.code).toBe(3);
    expect(r.out).toMatch(/^broken-session\s+—\s+failed: .*broken-session\.jsonl/m);
    expect(r.out).toMatch(/^agent:main:s0\s+2\s+legacy\s+/m);
    expect(r.err).toMatch(/1 session\(s\) could not be replayed \(first: broken-session: /);
    expect(existsSync(join(outDir, `${dir.sessionIds[0]}.recording.json`))).toBe(true);
    rmSync(dir.stateDir, { recursive: true, force: true });
  });

  it('a plugin that is not approved runs on legacy in every session: exit 4, each session named', async () => {
    const configDir = process.env.CONTEXTSCOPE_CONFIG_DIR;
    process.env.CONTEXTSCOPE_CONFIG_DIR = tempDir(); // no consent remembered, and no --allow-execute
    try {
      const r = await runCli(
        ['replay', '--state-dir', good.stateDir, '--all', '--lane', 'plugin:recent-window'].concat([
          '--out-dir',
          join(tempDir(), 'out'),
          '--workers',
          '2',
          '--json',
          '-',
        ]),
      );
      const summary = JSON.parse(r.out) as { rows: BatchRow[] };
      expect(summary.rows.map((row) => row.lanes[0]!.error !== undefined)).toEqual([true, true, true]);
      for (const key of ['agent:main:s0', 'agent:main:s1', 'agent:ops:q0'])
        expect(r.err).toContain(`${key}: lane recent-window did not run its engine (it ran on legacy): `);
      expect(r.code).toBe(4);
    } finally {
      if (configDir === undefined) delete process.env.CONTEXTSCOPE_CONFIG_DIR;
      else process.env.CONTEXTSCOPE_CONFIG_DIR = configDir;
    }
  });

  it('refuses what --all cannot do, with exit 2 and what to change', async () => {
    const cases: [string[], RegExp][] = [
      [['--all'], /give --state-dir <dir>/],
      [['--all', '--state-dir', good.stateDir, '--session', 'agent:main:s0'], /give no session argument/],
      [['--all', '--state-dir', good.stateDir, '--html', 'x.html'], /cannot be combined with --html/],
      [['--all', '--state-dir', good.stateDir, '--workers', '0'], /--workers 0: give a whole number from 1 to 64/],
      [['--all', '--state-dir', good.stateDir, '--lane', 'legacyy'], /legacyy/],
      [['--all', '--state-dir', tempDir()], /no sessions to replay in /],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(['replay', ...args]);
      expect(r.err, args.join(' ')).toMatch(message);
      expect(r.code, args.join(' ')).toBe(2);
    }
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgram, type CliHost } from '../../../src/cli';
import { importRecording } from '../../../src/replay';
import { SessionBuilder, tempDir } from './sessionBuilder';

function fakeHost() {
  const out: string[] = [];
  const err: string[] = [];
  const host: CliHost = {
    startServe: async () => ({ url: '', close: async () => {} }),
    waitForStop: () => new Promise(() => {}),
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  };
  return { host, out: () => out.join(''), err: () => err.join('') };
}

async function run(args: string[]) {
  const fake = fakeHost();
  const program = createProgram(fake.host).exitOverride();
  for (const command of program.commands) command.exitOverride();
  process.exitCode = undefined;
  await program.parseAsync(['node', 'contextscope', ...args]);
  const code = process.exitCode ?? 0;
  process.exitCode = undefined;
  return { ...fake, code };
}

async function sessionFile(): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder().turn('one').turn('two').turn('three');
  await b.write(dir);
  return join(dir, 'sess-1.jsonl');
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('contextscope replay / compare', () => {
  it('replay --json writes a re-importable recording and stays quiet', async () => {
    const file = await sessionFile();
    const out = join(tempDir(), 'rec.json');
    const html = join(tempDir(), 'rep.html');
    const r = await run([
      'replay',
      file,
      '--lane',
      'legacy?window=32000',
      '--lane',
      'legacy?window=64000&label=wide',
      '--json',
      out,
      '--html',
      html,
    ]);
    expect(r.code).toBe(0);
    expect(r.out()).toBe('');
    const rec = importRecording(readFileSync(out, 'utf8'));
    expect(rec.lanes.map((l) => [l.id, l.contextWindow])).toEqual([
      ['legacy@32000', 32000],
      ['wide', 64000],
    ]);
    expect(rec.turns.wide).toHaveLength(3);
    expect(readFileSync(html, 'utf8')).toContain('<svg class="chart"');
  });

  it('replay prints a lane summary without --json', async () => {
    const r = await run(['replay', await sessionFile(), '--window', '32000', '--no-progress']);
    expect(r.code).toBe(0);
    // OpenClaw's keepRecentTokens 20000 does not fit a 32000 window's prompt budget: one lane-level warning
    expect(r.out()).toBe(
      'legacy (legacy, window 32000, reserve 20000): 3 turns (3 ok), 0 compactions, 0 quarantines, findings: 0 error, 1 warning\n',
    );
  });

  it('bad input exits 2 with what to fix', async () => {
    const file = await sessionFile();
    const bad = await run(['replay', file, '--lane', 'lossless']);
    expect(bad.code).toBe(2);
    expect(bad.err()).toContain('Invalid lane spec "lossless": it must start with "legacy" or "plugin:"');
    const missing = await run(['replay', join(tempDir(), 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err()).toContain('does not exist. Pass a session .jsonl file or a folder holding sessions.');
    const window = await run(['replay', file, '--window', 'big']);
    expect(window.code).toBe(2);
    expect(window.err()).toBe('--window big: give a positive whole number of tokens, e.g. --window 32000\n');
  });

  it('compare prints lanes side by side and --fail-on turns findings into exit code 1', async () => {
    const file = await sessionFile();
    const out = join(tempDir(), 'rec.json');
    await run([
      'replay',
      file,
      '--lane',
      'legacy?window=32000',
      '--lane',
      'legacy?window=64000&label=wide',
      '--json',
      out,
    ]);
    const r = await run(['compare', out]);
    expect(r.code).toBe(0);
    const lines = r.out().split('\n');
    expect(lines[0]).toMatch(/^\s+│ legacy@32000\s+│ wide$/);
    expect(lines[1]).toMatch(
      /^turn │ tokens\/budget\s+kept·sum·drop\s+events │ tokens\/budget\s+kept·sum·drop\s+events$/,
    );
    expect(lines[3]).toMatch(/^\s+2 │\s+\d+\/\d+\s+2·0·0\s+│\s+\d+\/\d+\s+2·0·0$/);
    expect(r.out()).toContain(
      '\nFindings (1):\n  warning keep-recent-exceeds-budget legacy@32000 turn –: keepRecentTokens 20000 ≥ prompt budget 12000',
    );

    // a recording with an error finding fails CI under --fail-on error
    const rec = JSON.parse(readFileSync(out, 'utf8'));
    rec.findings.push({ code: 'orphaned-tool-call', severity: 'error', lane: 'wide', turn: 1, message: 'x' });
    writeFileSync(out, JSON.stringify(rec));
    const failing = await run(['compare', out, '--fail-on', 'error']);
    expect(failing.code).toBe(1);
    expect(failing.err()).toBe('1 finding(s) matched --fail-on error\n');
    expect((await run(['compare', out, '--fail-on', 'estimate-drift'])).code).toBe(0);
  });

  it('compare --json prints rows and findings', async () => {
    const r = await run(['compare', await sessionFile(), '--json', '--window', '32000']);
    const parsed = JSON.parse(r.out());
    expect(parsed.rows).toHaveLength(3);
    expect(parsed.rows[2].lanes.legacy).toMatchObject({ kept: 4, summarized: 0, dropped: 0, status: 'ok' });
    expect(parsed.failing).toBe(0);
  });
});

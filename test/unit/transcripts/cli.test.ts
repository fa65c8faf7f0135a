import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProgram, type CliHost } from '../../../src/cli';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/transcripts/malformed');

function fakeHost() {
  const out: string[] = [];
  const err: string[] = [];
  const host: CliHost = {
    startServe: async () => {
      throw new Error('not used');
    },
    waitForStop: async () => {},
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  };
  return { host, out, err };
}

async function run(args: string[]) {
  const fake = fakeHost();
  const program = createProgram(fake.host).exitOverride();
  for (const command of program.commands) command.exitOverride();
  let error: unknown;
  try {
    await program.parseAsync(['node', 'contextscope', ...args]);
  } catch (e) {
    error = e;
  }
  return { ...fake, error: error as (Error & { code?: string }) | undefined, stdout: fake.out.join('') };
}

describe('contextscope generate', () => {
  it('writes a state dir and reports what it wrote; the same seed writes the same bytes', async () => {
    const a = mkdtempSync(join(tmpdir(), 'cs-cli-'));
    const b = mkdtempSync(join(tmpdir(), 'cs-cli-'));
    const first = await run(['generate', '--turns', '6', '--seed', '5', '--subagents', '--out', a]);
    expect(first.error).toBeUndefined();
    expect(first.stdout).toMatch(/^Wrote 3 session file\(s\) and sessions\.json to .*agents\/main\/sessions\n/);
    expect(first.stdout).toMatch(
      /: 6 turns, \d+ messages, \d+ KB, \d+ compaction\(s\), 1 side branch\(es\), 3 spawn\(s\) \(1 failed\)\n/,
    );
    await run(['generate', '--turns', '6', '--seed', '5', '--subagents', '--out', b]);
    const dirA = join(a, 'agents/main/sessions');
    const dirB = join(b, 'agents/main/sessions');
    const files = readdirSync(dirA).sort();
    expect(readdirSync(dirB).sort()).toEqual(files);
    for (const f of files) expect(readFileSync(join(dirB, f))).toEqual(readFileSync(join(dirA, f)));
  });

  it('--json prints the statistics; bad numbers are rejected with the option name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'));
    const ok = await run(['generate', '--turns', '3', '--seed', '1', '--out', dir, '--json', '--no-images']);
    expect(JSON.parse(ok.stdout).stats).toMatchObject({ turns: 3, spawns: 0, branches: 0 });
    const bad = await run(['generate', '--turns', 'many', '--out', dir]);
    expect(bad.error?.code).toBe('commander.invalidArgument');
    expect(bad.err.join('')).toContain('--turns must be a positive integer, got "many".');
  });
});

describe('contextscope session', () => {
  it('prints header, entry counts, branch info and no problems for a valid file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-cli-'));
    await run(['generate', '--turns', '8', '--seed', '2', '--out', dir]);
    const sessionsDir = join(dir, 'agents/main/sessions');
    const file = join(
      sessionsDir,
      readdirSync(sessionsDir).find((f) => f.endsWith('.jsonl'))!,
    );
    const result = await run(['session', file]);
    expect(result.error).toBeUndefined();
    expect(result.stdout).toMatch(/^Session [0-9a-f-]{36}\n {2}file {7}.*\.jsonl \(\d+ lines\)\n {2}version {4}3\n/);
    expect(result.stdout).toMatch(/\nEntries {6}\d+: message \d+, /);
    expect(result.stdout).toMatch(
      /\nBranches {5}2 \(leaf [0-9a-f]{8}, active path \d+ entries, forks at [0-9a-f]{8}\)\n/,
    );
    expect(result.stdout).toContain('\nProblems     none\n');
    const json = JSON.parse((await run(['session', file, '--json'])).stdout);
    expect(json).toMatchObject({ sourceVersion: 3, branch: { branches: 2 }, problems: [] });
    expect(json.entriesByType.leaf).toBe(1);
  });

  it('fails (exit 1 via the thrown error) in strict mode with the loader error and a hint', async () => {
    const file = join(FIXTURES, '02-bad-json.jsonl');
    const result = await run(['session', file]);
    expect(result.error?.message).toMatch(
      new RegExp(
        `^Invalid JSONL session file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: line 3: is not valid JSON \\(.*\\)\\nRun with --tolerant to load what can be loaded and list every problem\\.$`,
      ),
    );
    expect(result.stdout).toBe('');
  });

  it('--tolerant lists every problem as file:line', async () => {
    const file = join(FIXTURES, '13-header-not-first.jsonl');
    const result = await run(['session', file, '--tolerant']);
    expect(result.error).toBeUndefined();
    expect(result.stdout).toContain('(no valid header; made up from the file name)');
    expect(result.stdout).toContain(
      `Problems     2\n  ${file}:1: error invalid_header: first line is not a valid session header`,
    );
    expect(result.stdout).toContain(
      `\n  ${file}:2: error misplaced_header: is a session header; only the first non-blank line may be one\n`,
    );
  });
});

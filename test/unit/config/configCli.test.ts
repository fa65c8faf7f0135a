/**
 * `contextscope config …` and `contextscope plugins …` in-process (a fake host collects the output, exit codes
 * from process.exitCode), and once as a real process for commander's usage errors (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import JSON5 from 'json5';
import { afterEach, describe, expect, it } from 'vitest';
import { createProgram, type CliHost } from '../../../src/cli';
import { cleanTemps, copyFixture, tempDir } from './configHelpers';
import { BUILT_CLI } from '../builtApp';

afterEach(() => {
  cleanTemps();
  process.exitCode = undefined;
});

function throwOnExit(command: Command): void {
  command.exitOverride();
  for (const child of command.commands) throwOnExit(child);
}

async function cli(...args: string[]): Promise<{ out: string; err: string; code: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const host: CliHost = {
    startServe: () => Promise.reject(new Error('not here')),
    waitForStop: () => new Promise(() => {}),
    out: (t) => out.push(t),
    err: (t) => err.push(t),
  };
  const program = createProgram(host);
  throwOnExit(program);
  process.exitCode = undefined;
  await program.parseAsync(['node', 'contextscope', ...args]);
  const code = Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  return { out: out.join(''), err: err.join(''), code };
}

function fixture() {
  const dir = copyFixture('realistic');
  const file = join(dir, 'openclaw.json');
  const options = ['--config', file, '--state-dir', tempDir('cs-state-')];
  return { dir, file, options, original: readFileSync(file, 'utf8') };
}

describe('contextscope config', () => {
  it('get prints a value (from an $include file too, with --json saying which file)', async () => {
    const { dir, options } = fixture();
    expect(await cli('config', 'get', 'plugins.slots.contextEngine', ...options)).toEqual({
      out: 'legacy\n',
      err: '',
      code: 0,
    });
    const json = await cli('config', 'get', 'channels.telegram.dmPolicy', '--json', ...options);
    expect(JSON.parse(json.out)).toEqual({
      path: 'channels.telegram.dmPolicy',
      set: true,
      value: 'pairing',
      file: join(dir, 'channels.json5'),
    });
    const missing = await cli('config', 'get', 'plugins.slots.nothing', ...options);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^plugins\.slots\.nothing is not set in /);
  });

  it('set reads the value as JSON5, else as a string, writes losslessly and names the backup', async () => {
    const { file, options, original } = fixture();
    const slot = await cli('config', 'set', 'plugins.slots.contextEngine', 'recent-window', ...options);
    expect(slot.code).toBe(0);
    expect(slot.out).toMatch(
      /^plugins\.slots\.contextEngine: "legacy" → "recent-window"\nwrote .*openclaw\.json \(previous version: .*\.bak\)\n$/,
    );
    const share = await cli('config', 'set', 'plugins.entries.recent-window.config.budgetShare', '0.5', ...options);
    expect(share.out.split('\n')[0]).toBe('plugins.entries.recent-window.config.budgetShare: 0.8 → 0.5');
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(
      original
        .replace('contextEngine: "legacy", // try', 'contextEngine: "recent-window", // try')
        .replace('budgetShare: 0.8,', 'budgetShare: 0.5,'),
    );
  });

  it('a value the schema refuses: exit 1, the path and the rule named, the file untouched and no backup', async () => {
    const { file, options, original } = fixture();
    const result = await cli('config', 'set', 'plugins.entries.recent-window.config.minRecentTurns', '-3', ...options);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      `contextscope: refused, nothing written: ${file} would have 1 validation error(s)\n` +
        `${file}:29:27: error: plugins.entries.recent-window.config.minRecentTurns must be >= 0 (configSchema of recent-window)\n` +
        `  fix: change it to satisfy recent-window's configSchema (${resolve('resources/plugins/recent-window/openclaw.plugin.json')}), or reset it to the default\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(existsSync(`${file}.backups`)).toBe(false);
  });

  it('an edit of a value an $include provides is refused (exit 1), naming the file', async () => {
    const { dir, options, original, file } = fixture();
    const result = await cli('config', 'set', 'channels.telegram.enabled', 'false', ...options);
    expect(result.code).toBe(1);
    expect(result.err).toContain(`comes from the $include file ${join(dir, 'channels.json5')}`);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('unset and --dry-run: the diff is printed, nothing is written', async () => {
    const { file, options, original } = fixture();
    const result = await cli(
      'config',
      'unset',
      'agents.defaults.compaction.reserveTokensFloor',
      '--dry-run',
      ...options,
    );
    expect(result.code).toBe(0);
    expect(result.out).toContain('agents.defaults.compaction.reserveTokensFloor: 20000 → (unset)\n');
    expect(result.out).toContain('-        reserveTokensFloor: 20000,\n');
    expect(result.out).toMatch(/not written \(--dry-run\)\n$/);
    expect(readFileSync(file, 'utf8')).toBe(original);
  });

  it('validate: exit 0 with warnings only, 1 with errors, each with file:line:column', async () => {
    const { options } = fixture();
    expect((await cli('config', 'validate', ...options)).out).toMatch(
      /valid — 0 error\(s\), 0 warning\(s\), 1 \$include file\(s\)\n$/,
    );
    const bad = copyFixture('realistic');
    const file = join(bad, 'openclaw.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(file, readFileSync(file, 'utf8').replace('memory: "memory-core"', 'memory: "memory-x"'));
    const result = await cli('config', 'validate', '--config', file, '--state-dir', tempDir());
    expect(result.code).toBe(1);
    expect(result.out).toContain(
      `${file}:21:15: error: plugins.slots.memory names "memory-x", which is no memory plugin: OpenClaw refuses this config`,
    );
  });
});

describe('contextscope plugins', () => {
  it('list shows kind, origin, entry state and the slots each plugin holds', async () => {
    const { options } = fixture();
    const { out } = await cli('plugins', 'list', ...options);
    expect(out).toContain('recent-window  [context-engine]  bundled · enabled\n');
    expect(out).toContain(
      'summary-tree  [context-engine]  bundled · disabled (disabled by plugins.entries.summary-tree.enabled: false)\n',
    );
  });

  it('uninstall of the plugin the slot names resets the slot to legacy; enable/disable flip the entry', async () => {
    const { file, options } = fixture();
    await cli('config', 'set', 'plugins.slots.contextEngine', 'recent-window', ...options);
    const result = await cli('plugins', 'uninstall', 'recent-window', ...options);
    expect(result.code).toBe(0);
    expect(result.out).toContain('plugins.slots.contextEngine: "recent-window" → "legacy"\n');
    expect(JSON5.parse(readFileSync(file, 'utf8')).plugins.entries['recent-window']).toEqual({ enabled: false });
    await cli('plugins', 'enable', 'summary-tree', ...options);
    expect(JSON5.parse(readFileSync(file, 'utf8')).plugins.entries['summary-tree']).toEqual({ enabled: true });
    expect((await cli('plugins', 'disable', 'no-such', ...options)).code).toBe(1);
  });
});

describe('usage errors exit with 2 (real process)', () => {
  it('a missing argument, an unknown subcommand and a malformed path', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [BUILT_CLI, ...args], { encoding: 'utf8', cwd: resolve('.') });
    const missing = run('config', 'set', 'plugins.slots.contextEngine');
    expect([missing.status, missing.stderr.split('\n')[0]]).toEqual([2, "error: missing required argument 'value'"]);
    expect(run('plugins', 'frobnicate').status).toBe(2);
    const path = run('config', 'get', 'plugins..slots', '--config', join(tempDir(), 'none.json'));
    expect([path.status, path.stderr]).toEqual([
      2,
      'contextscope: Invalid config path "plugins..slots" at character 9: a key is missing.\n',
    ]);
  }, 60_000);
});

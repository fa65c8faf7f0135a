import { existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { contentHash, FileChangedError, writeFileAtomic } from '../../../src/common';
import {
  buildTryLanes,
  listConfigBackups,
  previewConfig,
  readConfigSnapshot,
  restoreConfigBackup,
  saveConfig,
  snapshotOfText,
  type ConfigChange,
} from '../../../src/config';
import { cleanTemps, copyFixture, tempDir, testEnvironment } from './configHelpers';

afterEach(cleanTemps);

function setup() {
  const dir = copyFixture('realistic');
  const file = join(dir, 'openclaw.json');
  return { dir, file, env: testEnvironment(), original: readFileSync(file, 'utf8') };
}

const toRecentWindow: ConfigChange[] = [
  { op: 'selectSlot', slot: 'contextEngine', value: 'recent-window' },
  { op: 'setPluginConfig', pluginId: 'recent-window', config: { budgetShare: 0.6, minRecentTurns: 1 } },
];

describe('preview', () => {
  it('says what changes: path-level from → to, the text diff, and the validation of the result', () => {
    const { file, env } = setup();
    const preview = previewConfig(readConfigSnapshot(file, env), { changes: toRecentWindow }, env);
    expect(preview.changes).toEqual([
      { path: ['plugins', 'slots', 'contextEngine'], kind: 'changed', from: 'legacy', to: 'recent-window' },
      { path: ['plugins', 'entries', 'recent-window', 'config', 'budgetShare'], kind: 'changed', from: 0.8, to: 0.6 },
    ]);
    expect(preview.diff.split('\n').filter((l) => /^[+-][^+-]/.test(l))).toEqual([
      '-      contextEngine: "legacy", // try recent-window here',
      '+      contextEngine: "recent-window", // try recent-window here',
      '-          budgetShare: 0.8,',
      '+          budgetShare: 0.6,',
    ]);
    expect([preview.ok, preview.changed, preview.issues]).toEqual([true, true, []]);
  });
});

describe('guarded save', () => {
  it('writes the change, keeps a timestamped backup of the previous version, and the comments', () => {
    const { file, env, original } = setup();
    const { hash } = readConfigSnapshot(file, env);
    const outcome = saveConfig({ path: file, baseHash: hash, changes: toRecentWindow }, env);
    if (!outcome.ok) throw new Error(outcome.message);
    const text = readFileSync(file, 'utf8');
    expect(outcome.hash).toBe(contentHash(text));
    expect(text).toContain('contextEngine: "recent-window", // try recent-window here');
    expect(text).toContain('/* always keep the newest turn */');
    expect(readFileSync(outcome.backupFile!, 'utf8')).toBe(original);
    expect(outcome.backupFile).toMatch(
      /openclaw\.json\.backups\/openclaw\.json\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z\.bak$/,
    );
    expect(listConfigBackups(file).map((b) => [b.file, b.hash])).toEqual([[outcome.backupFile, contentHash(original)]]);
  });

  it("a value the plugin's schema refuses is refused with its path, and the file is untouched", () => {
    const { file, env, original } = setup();
    const { hash } = readConfigSnapshot(file, env);
    const outcome = saveConfig(
      {
        path: file,
        baseHash: hash,
        changes: [{ op: 'set', path: ['plugins', 'entries', 'recent-window', 'config', 'budgetShare'], value: 5 }],
      },
      env,
    );
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'invalid',
      message:
        'nothing was written: 1 validation error — line 27: plugins.entries.recent-window.config.budgetShare must be <= 1 (configSchema of recent-window)',
    });
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(existsSync(`${file}.backups`)).toBe(false);
  });

  it('refuses when the file changed on disk since it was loaded; the external edit is kept; reload-and-reapply works', () => {
    const { file, env } = setup();
    const loaded = readConfigSnapshot(file, env);
    const external = loaded.text.replace('port: 18789', 'port: 18790');
    writeFileSync(file, external);
    const outcome = saveConfig({ path: file, baseHash: loaded.hash, changes: toRecentWindow }, env);
    expect(outcome).toMatchObject({
      ok: false,
      reason: 'changed-on-disk',
      current: { text: external, hash: contentHash(external) },
    });
    expect(readFileSync(file, 'utf8')).toBe(external);
    // reload and re-apply the same changes against the new version
    const again = saveConfig(
      { path: file, baseHash: readConfigSnapshot(file, env).hash, changes: toRecentWindow },
      env,
    );
    expect(again.ok).toBe(true);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('port: 18790');
    expect(text).toContain('contextEngine: "recent-window"');
  });

  it('restores a backup as a normal guarded save (the current version is backed up too)', () => {
    const { file, env, original } = setup();
    const first = saveConfig(
      { path: file, baseHash: readConfigSnapshot(file, env).hash, changes: toRecentWindow },
      env,
    );
    if (!first.ok) throw new Error(first.message);
    const edited = readFileSync(file, 'utf8');
    expect(() => restoreConfigBackup({ path: file, baseHash: first.hash, backupFile: '/etc/passwd' }, env)).toThrow(
      `/etc/passwd is not one of the backups of ${file}; pick one that config backups lists`,
    );
    const stale = restoreConfigBackup({ path: file, baseHash: 'not-the-hash', backupFile: first.backupFile! }, env);
    expect(stale).toMatchObject({ ok: false, reason: 'changed-on-disk' });
    const restored = restoreConfigBackup({ path: file, baseHash: first.hash, backupFile: first.backupFile! }, env);
    expect(restored.ok).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(original);
    expect(listConfigBackups(file).map((b) => readFileSync(b.file, 'utf8'))).toEqual([edited, original]);
  });

  it('the raw editor cannot save text that does not parse: a syntax error is refused like any error', () => {
    const { file, env, original } = setup();
    const outcome = saveConfig({ path: file, baseHash: readConfigSnapshot(file, env).hash, text: '{ broken' }, env);
    expect(outcome).toMatchObject({ ok: false, reason: 'invalid' });
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});

describe('writeFileAtomic', () => {
  it('writes through a symlink when told to follow it (as config saves do), keeps the file mode, and refuses a stale expectedHash', () => {
    const dir = tempDir();
    const real = join(dir, 'real.json');
    const link = join(dir, 'openclaw.json');
    writeFileSync(real, '{}', { mode: 0o640 });
    symlinkSync(real, link);
    const result = writeFileAtomic(link, '{"a":1}', {
      expectedHash: contentHash('{}'),
      backup: {},
      symlinks: 'follow',
    });
    expect(result.file).toBe(real);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, 'utf8')).toBe('{"a":1}');
    expect(statSync(real).mode & 0o777).toBe(0o640);
    expect(() => writeFileAtomic(link, 'x', { expectedHash: contentHash('{}'), symlinks: 'follow' })).toThrow(
      FileChangedError,
    );
    expect(readFileSync(real, 'utf8')).toBe('{"a":1}');
    expect(readdirSync(dir).sort()).toEqual(['openclaw.json', 'real.json', 'real.json.backups']);
  });

  it('keeps only the newest backups it is told to keep', () => {
    const file = join(tempDir(), 'f.json');
    writeFileSync(file, '0');
    for (let i = 1; i <= 5; i++) writeFileAtomic(file, String(i), { backup: { keep: 3 } });
    expect(
      readdirSync(`${file}.backups`)
        .map((n) => readFileSync(join(`${file}.backups`, n), 'utf8'))
        .sort(),
    ).toEqual(['2', '3', '4']);
  });
});

describe('try before save', () => {
  it('builds a lane per config: the edited plugin config goes to a temporary file, openclaw.json is not written', () => {
    const { file, env, original } = setup();
    const saved = readConfigSnapshot(file, env);
    const preview = previewConfig(
      saved,
      {
        changes: [
          ...toRecentWindow,
          { op: 'setContextWindow', tokens: 48000 },
          { op: 'setCompaction', settings: { reserveTokens: 12000 } },
        ],
      },
      env,
    );
    const dir = tempDir();
    const lanes = buildTryLanes(saved, snapshotOfText(file, preview.text, env), dir, env);
    expect(lanes.saved.spec).toBe('legacy?label=saved%20config');
    expect(lanes.edited).toMatchObject({
      engineId: 'recent-window',
      pluginId: 'recent-window',
      window: 48000,
      reserve: 12000,
    });
    expect(lanes.edited.spec).toMatch(
      /^plugin:.*\/resources\/plugins\/recent-window\?config=.*edited-config\.recent-window\.json&window=48000&reserve=12000&label=edited%20config$/,
    );
    expect(JSON.parse(readFileSync(lanes.edited.configFile!, 'utf8'))).toEqual({ budgetShare: 0.6, minRecentTurns: 1 });
    expect(readFileSync(file, 'utf8')).toBe(original);
  });
});

/**
 * What the consent hash is bound to (src/plugins/hashPluginPackage.ts): every file's path and bytes under the
 * plugin's real root, `.git` excepted, and what links out of the package point to — within the caps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashPluginPackage, snapshotPluginPackage } from '../../../src/plugins/hashPluginPackage';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** a plugin folder with `files` (relative path → text) */
function pluginWith(files: Record<string, string>): {
  rootDir: string;
  plugin: Parameters<typeof hashPluginPackage>[0];
} {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'cs-hash-')));
  temps.push(base);
  const rootDir = join(base, 'plugin');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(rootDir, file, '..'), { recursive: true });
    writeFileSync(join(rootDir, file), text);
  }
  mkdirSync(rootDir, { recursive: true });
  return { rootDir, plugin: { rootDir, manifestPath: join(rootDir, 'openclaw.plugin.json'), entries: [] } };
}

const FILES = {
  'openclaw.plugin.json': '{"id":"p"}',
  'index.js': 'module.exports = 1;',
  'lib/util.js': 'exports.u = 2;',
};

describe('hashPluginPackage', () => {
  it('is the same for the same files and paths', () => {
    expect(hashPluginPackage(pluginWith(FILES).plugin)).toBe(hashPluginPackage(pluginWith(FILES).plugin));
  });

  it('changes when a file is renamed with the same bytes (consent binds paths)', () => {
    const { rootDir, plugin } = pluginWith(FILES);
    const before = hashPluginPackage(plugin);
    renameSync(join(rootDir, 'lib/util.js'), join(rootDir, 'lib/other.js'));
    expect(hashPluginPackage(plugin)).not.toBe(before);
  });

  it('changes when a byte of a file changes, in node_modules and dot-folders too, but not in .git', () => {
    const { rootDir, plugin } = pluginWith({
      ...FILES,
      'node_modules/dep/index.js': 'a',
      '.cache/x.js': 'b',
      '.git/HEAD': 'ref: main',
    });
    const start = hashPluginPackage(plugin);
    writeFileSync(join(rootDir, '.git/HEAD'), 'ref: other');
    expect(hashPluginPackage(plugin)).toBe(start);
    writeFileSync(join(rootDir, 'node_modules/dep/index.js'), 'A');
    const afterDependency = hashPluginPackage(plugin);
    expect(afterDependency).not.toBe(start);
    writeFileSync(join(rootDir, '.cache/x.js'), 'B');
    expect(hashPluginPackage(plugin)).not.toBe(afterDependency);
  });

  it('lists every covered file by real path with the sha256 of its bytes, and counts files and bytes', () => {
    const { rootDir, plugin } = pluginWith(FILES);
    const snapshot = snapshotPluginPackage(plugin);
    expect(Object.keys(snapshot.files).sort()).toEqual(
      ['index.js', 'lib/util.js', 'openclaw.plugin.json'].map((file) => join(rootDir, file)),
    );
    expect(snapshot.files[join(rootDir, 'index.js')]).toBe(
      createHash('sha256').update(FILES['index.js']).digest('hex'),
    );
    expect(snapshot.fileCount).toBe(3);
    expect(snapshot.bytes).toBe(Object.values(FILES).reduce((sum, text) => sum + Buffer.byteLength(text), 0));
    expect(snapshot.truncated).toBeUndefined();
    expect(snapshot.linkedTargets).toBeUndefined();
  });

  it('covers what a link out of the package points to, and hashes a link inside it by its text', () => {
    const outside = pluginWith({ 'shared.js': 'exports.s = 1;' });
    const { rootDir, plugin } = pluginWith(FILES);
    symlinkSync(join(outside.rootDir, 'shared.js'), join(rootDir, 'shared.js'));
    symlinkSync('index.js', join(rootDir, 'alias.js'));
    const snapshot = snapshotPluginPackage(plugin);
    expect(snapshot.linkedTargets).toEqual([join(outside.rootDir, 'shared.js')]);
    expect(Object.keys(snapshot.files)).toContain(join(outside.rootDir, 'shared.js'));
    expect(Object.keys(snapshot.files)).not.toContain(join(rootDir, 'alias.js'));
    const before = snapshot.hash;
    writeFileSync(join(outside.rootDir, 'shared.js'), 'exports.s = 2;');
    expect(hashPluginPackage(plugin)).not.toBe(before);
  });

  it('a dangling link counts by its text', () => {
    const { rootDir, plugin } = pluginWith(FILES);
    symlinkSync('missing-a.js', join(rootDir, 'gone.js'));
    const first = hashPluginPackage(plugin);
    rmSync(join(rootDir, 'gone.js'));
    symlinkSync('missing-b.js', join(rootDir, 'gone.js'));
    expect(hashPluginPackage(plugin)).not.toBe(first);
  });

  it('stops at the file cap and says which files are not covered', () => {
    const { rootDir, plugin } = pluginWith(FILES);
    const snapshot = snapshotPluginPackage(plugin, { maxFiles: 2 });
    expect(snapshot.fileCount).toBe(2);
    expect(Object.keys(snapshot.files)).toEqual([join(rootDir, 'index.js'), join(rootDir, 'lib/util.js')]);
    expect(snapshot.truncated).toBe(
      'the package has more than 2 files; files from openclaw.plugin.json on are not covered and cannot be loaded',
    );
    expect(snapshot.hash).not.toBe(snapshotPluginPackage(plugin).hash);
  });

  it('stops at the byte cap, counting the file that would pass it as not covered', () => {
    const { rootDir, plugin } = pluginWith(FILES);
    const firstTwo = Buffer.byteLength(FILES['index.js']) + Buffer.byteLength(FILES['lib/util.js']);
    const exact = snapshotPluginPackage(plugin, {
      maxBytes: firstTwo + Buffer.byteLength(FILES['openclaw.plugin.json']),
    });
    expect(exact.truncated).toBeUndefined();
    const snapshot = snapshotPluginPackage(plugin, { maxBytes: firstTwo });
    expect(Object.keys(snapshot.files)).toEqual([join(rootDir, 'index.js'), join(rootDir, 'lib/util.js')]);
    expect(snapshot.bytes).toBe(firstTwo);
    expect(snapshot.truncated).toBe(
      `the package has more than ${firstTwo} bytes; files from openclaw.plugin.json on are not covered and cannot be loaded`,
    );
  });
});

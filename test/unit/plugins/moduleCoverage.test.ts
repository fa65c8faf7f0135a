/**
 * The engine host loads only what consent covers (src/plugins/host/moduleCoverage.ts), checked in this process:
 * which files may load, the CommonJS resolution hook (installed once per process, so this file runs isolated) and
 * jiti's transform with its transpile cache. The built, confined host is exercised end to end by consentCoverage.test.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHANGED_TEXT,
  NOT_COVERED_CODE,
  NOT_COVERED_TEXT,
  coverageProblem,
  coveredJitiTransform,
  engineHostCodeDirs,
  installCommonJsCoverage,
  notCoveredError,
  type ModuleCoverage,
} from '../../../src/plugins/host/moduleCoverage';

const base = realpathSync(mkdtempSync(join(tmpdir(), 'cs-coverage-')));
afterAll(() => rmSync(base, { recursive: true, force: true }));

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** files under `root` (relative path → text), and the coverage that consent to exactly those would give */
function folderWith(root: string, files: Record<string, string>): Record<string, string> {
  const covered: Record<string, string> = {};
  for (const [file, text] of Object.entries(files)) {
    const path = join(root, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    covered[path] = sha(text);
  }
  return covered;
}

describe('coverageProblem', () => {
  const root = join(base, 'plain');
  const covered = folderWith(root, { 'index.js': 'a', 'lib/b.js': 'b' });
  const hostDir = join(base, 'host');
  mkdirSync(hostDir, { recursive: true });
  const coverage: ModuleCoverage = { covered, exemptDirs: [hostDir] };

  it('lets a covered file with its consented bytes load', () => {
    expect(coverageProblem(coverage, join(root, 'lib/b.js'))).toBeUndefined();
  });

  it('refuses a file consent did not see, naming it', () => {
    writeFileSync(join(root, 'extra.js'), 'x');
    expect(coverageProblem(coverage, join(root, 'extra.js'))).toBe(`${join(root, 'extra.js')} ${NOT_COVERED_TEXT}`);
  });

  it('refuses a covered file whose bytes changed since consent', () => {
    const changed = folderWith(join(base, 'changed'), { 'index.js': 'before' });
    writeFileSync(join(base, 'changed/index.js'), 'after');
    expect(coverageProblem({ covered: changed, exemptDirs: [] }, join(base, 'changed/index.js'))).toBe(
      `${join(base, 'changed/index.js')} ${CHANGED_TEXT}`,
    );
  });

  it('checks a file reached through a link by its real path', () => {
    symlinkSync(join(root, 'index.js'), join(base, 'link.js'));
    expect(coverageProblem(coverage, join(base, 'link.js'))).toBeUndefined();
  });

  it('exempts the host folder itself and what is inside it, not a sibling that shares its name as a prefix', () => {
    expect(coverageProblem(coverage, hostDir)).toBeUndefined();
    expect(coverageProblem(coverage, join(hostDir, 'engine-host.mjs'))).toBeUndefined();
    expect(coverageProblem({ covered, exemptDirs: [`${hostDir}/`] }, join(hostDir, 'x.js'))).toBeUndefined();
    const sibling = `${hostDir}-other${'/'}x.js`;
    expect(coverageProblem(coverage, sibling)).toBe(`${sibling} ${NOT_COVERED_TEXT}`);
  });

  it('leaves a covered file that cannot be read to the loader’s own error', () => {
    const gone = folderWith(join(base, 'gone'), { 'index.js': 'x' });
    rmSync(join(base, 'gone/index.js'));
    expect(coverageProblem({ covered: gone, exemptDirs: [] }, join(base, 'gone/index.js'))).toBeUndefined();
  });

  it('makes errors with the code the loader and the lane finding recognise', () => {
    const error = notCoveredError('p');
    expect(error.message).toBe('p');
    expect((error as { code?: string }).code).toBe(NOT_COVERED_CODE);
  });
});

describe('engineHostCodeDirs', () => {
  it('is the shim folder, the host folder (real paths) and jiti’s package', () => {
    const shims = join(base, 'shims');
    mkdirSync(shims, { recursive: true });
    symlinkSync(shims, join(base, 'shims-link'));
    const dirs = engineHostCodeDirs(join(base, 'shims-link'), resolve('src/plugins/host'));
    expect(dirs).toEqual([
      shims,
      resolve('src/plugins/host'),
      realpathSync(dirname(createRequire(import.meta.url).resolve('jiti/package.json'))),
    ]);
  });

  it('leaves jiti out where it cannot be found', () => {
    expect(engineHostCodeDirs(base, base)).toEqual([base, base]);
  });
});

describe('the CommonJS resolution hook', () => {
  const root = join(base, 'cjs/plugin');
  const covered = folderWith(root, {
    'index.js': "module.exports = require('./lib/ok.js');",
    'lib/ok.js': 'module.exports = 1;',
  });
  folderWith(join(base, 'cjs'), { 'outside.js': 'module.exports = 2;' });
  writeFileSync(join(root, 'uncovered.js'), 'module.exports = 3;');
  // as in the host: its own code and jiti are exempt (the transform tests below load jiti through this hook)
  installCommonJsCoverage({
    covered,
    exemptDirs: engineHostCodeDirs(join(base, 'cjs-shims'), resolve('src/plugins/host')),
  });
  // a second install is a no-op (the host installs once): this one would refuse everything
  installCommonJsCoverage({ covered: {}, exemptDirs: [] });
  const requireFromPlugin = createRequire(join(root, 'index.js'));

  it('loads covered files', () => {
    expect(requireFromPlugin('./index.js')).toBe(1);
  });

  it('refuses a file in the plugin folder that consent did not cover', () => {
    expect(() => requireFromPlugin('./uncovered.js')).toThrow(`${join(root, 'uncovered.js')} ${NOT_COVERED_TEXT}`);
  });

  it('refuses a file outside the folder of the covered files, also when it resolves', () => {
    expect(() => requireFromPlugin('../outside.js')).toThrow(`${join(base, 'cjs/outside.js')} ${NOT_COVERED_TEXT}`);
  });

  it('says a missing path out of the plugin folder is not covered, instead of "Cannot find module"', () => {
    let caught: unknown;
    try {
      requireFromPlugin('../../nowhere/secret');
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).toBe(`${join(base, 'nowhere/secret')} ${NOT_COVERED_TEXT}`);
    expect((caught as { code?: string }).code).toBe(NOT_COVERED_CODE);
  });

  it('keeps Node’s own error for a missing module inside the plugin folder or a missing package', () => {
    for (const request of ['./lib/missing.js', 'no-such-package-anywhere']) {
      let caught: unknown;
      try {
        requireFromPlugin(request);
      } catch (error) {
        caught = error;
      }
      expect((caught as { code?: string }).code, request).toBe('MODULE_NOT_FOUND');
    }
  });

  it('lets Node’s built-in modules through', () => {
    expect(requireFromPlugin('node:path')).toBe(requireFromPlugin('path'));
  });
});

describe('jiti’s transform under coverage', () => {
  const hostDir = resolve('src/plugins/host');
  const root = join(base, 'ts');
  const covered = folderWith(root, { 'index.ts': 'export const a: number = 1;' });

  it('refuses to transpile a file consent did not cover', () => {
    const transform = coveredJitiTransform({ covered: {}, exemptDirs: [] }, hostDir);
    expect(() => transform({ source: 'x', filename: join(root, 'index.ts') })).toThrow(NOT_COVERED_TEXT);
  });

  it('transpiles a covered file, caches the code, and serves the cache only for the same source', () => {
    const cacheDir = join(base, 'cache');
    const transform = coveredJitiTransform({ covered, exemptDirs: [] }, hostDir, cacheDir);
    const options = { source: 'export const a: number = 1;', filename: join(root, 'index.ts'), ts: true };
    const first = transform(options);
    expect(first.error).toBeUndefined();
    expect(first.code).toContain('exports.a = 1');
    expect(readdirSync(cacheDir)).toHaveLength(1);
    const [cached] = readdirSync(cacheDir);
    writeFileSync(join(cacheDir, cached!), '/* from the cache */');
    expect(transform(options).code).toBe('/* from the cache */');
    expect(transform({ ...options, source: 'export const a: number = 2;' }).code).toContain('exports.a = 2');
    expect(readdirSync(cacheDir)).toHaveLength(2);
  });

  it('checks coverage on a cached file too (a changed file is refused before the cache is read)', () => {
    const cacheDir = join(base, 'cache-changed');
    const changed = folderWith(join(base, 'ts-changed'), { 'index.ts': 'export const a = 1;' });
    const transform = coveredJitiTransform({ covered: changed, exemptDirs: [] }, hostDir, cacheDir);
    const options = { source: 'export const a = 1;', filename: join(base, 'ts-changed/index.ts') };
    transform(options);
    writeFileSync(join(base, 'ts-changed/index.ts'), 'export const a = 666;');
    expect(() => transform(options)).toThrow(CHANGED_TEXT);
  });

  it('does not cache without a cache folder', () => {
    const transform = coveredJitiTransform({ covered, exemptDirs: [] }, hostDir);
    const options = { source: 'export const b = 1;', filename: join(root, 'index.ts'), ts: true }; // jiti's own options too
    expect(transform(options).code).toContain('exports.b = 1');
  });
});

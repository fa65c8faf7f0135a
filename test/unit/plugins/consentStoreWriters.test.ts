/**
 * The consent file is a read-modify-write shared by every ContextScope process: two processes granting at once
 * keep each other's grants (the lock file), a grant for content other than what was reviewed is refused, and a
 * lock left by a killed writer does not lock the store out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createConsentStore } from '../../../src/plugins/consent';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';

const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-consent-writers-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function writePlugin(dir: string, id: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openclaw.plugin.json'), JSON.stringify({ id, kind: 'context-engine', configSchema: {} }));
  writeFileSync(join(dir, 'index.js'), `module.exports = function register() { /* ${id} */ };\n`);
  return dir;
}

const WRITER = `
import { createConsentStore } from ${JSON.stringify(resolve('src/plugins/consent.ts'))};
import { readPluginPackage } from ${JSON.stringify(resolve('src/plugins/readPluginPackage.ts'))};
import { existsSync } from 'node:fs';
const [file, go, ...dirs] = process.argv.slice(1);
const store = createConsentStore(file);
const plugins = dirs.map((dir) => readPluginPackage(dir, 'linked'));
process.stdout.write('ready\\n');
// both writers start granting at once (the test creates the go file when both are ready)
while (!existsSync(go)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
for (const plugin of plugins) store.grant(plugin);
`;

function startWriter(file: string, go: string, dirs: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', WRITER, file, go, ...dirs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = new Promise<void>((done) => {
    child.stdout.once('data', () => done());
    child.once('exit', () => done());
  });
  const exited = new Promise<number | null>((done, fail) => {
    child.on('error', fail);
    child.on('exit', (code) => done(code));
  });
  return { ready, exited };
}

describe('consent store writers', () => {
  it('two processes granting at the same time keep every grant', async () => {
    const root = tempDir();
    const file = join(root, 'config', 'plugin-consent.json');
    const dirs = Array.from({ length: 40 }, (_, i) => writePlugin(join(root, `p${i}`), `p${i}`));
    const go = join(root, 'go');
    const writers = [startWriter(file, go, dirs.slice(0, 20)), startWriter(file, go, dirs.slice(20))];
    await Promise.all(writers.map((w) => w.ready));
    writeFileSync(go, '');
    const codes = await Promise.all(writers.map((w) => w.exited));
    expect(codes).toEqual([0, 0]);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { grants: Record<string, unknown> };
    expect(Object.keys(saved.grants).sort()).toEqual(dirs.slice().sort());
    expect(readdirSync(join(root, 'config'))).toEqual(['plugin-consent.json']);
  }, 60_000);

  it('refuses a grant for content other than what was reviewed, and remembers nothing', () => {
    const dir = writePlugin(join(tempDir(), 'p'), 'p');
    const store = createConsentStore(join(tempDir(), 'consent.json'));
    const plugin = readPluginPackage(dir, 'linked');
    const reviewed = store.check(plugin).hash;
    writeFileSync(join(dir, 'index.js'), 'module.exports = function register() { /* other code */ };\n');
    expect(() => store.grant(plugin, reviewed)).toThrow(
      /changed since its consent was asked for .*nothing was approved/,
    );
    expect(store.list()).toEqual([]);
    expect(store.grant(plugin, store.check(plugin).hash).hash).toBe(store.check(plugin).hash);
  });

  it('takes over a lock whose writer is gone', () => {
    const dir = writePlugin(join(tempDir(), 'p'), 'p');
    const file = join(tempDir(), 'consent.json');
    writeFileSync(`${file}.lock`, '999999999'); // no such process
    createConsentStore(file).grant(readPluginPackage(dir, 'linked'));
    expect(
      createConsentStore(file)
        .list()
        .map((g) => g.realPath),
    ).toEqual([dir]);
  });
});

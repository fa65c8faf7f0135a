// CI's native addons: better-sqlite3 and zstd-napi have no prebuilt binary reachable here (prebuild-install asks
// github.com), so `npm ci` compiles them with node-gyp — about 85 s and 55 s of one core on this machine, most of
// `npm ci`. `.ci/run` installs with --ignore-scripts, then this script puts each addon's compiled `.node` files in
// place from a cache keyed by package, version, platform and Node ABI (as CI caches keep build outputs), or builds
// it with `npm rebuild` on a miss and keeps the result. Either way the addon is loaded and used once before the
// tests run, so a stale or broken cache entry is rebuilt instead of failing later.
//
// Cache: $CONTEXTSCOPE_CI_CACHE, else ${XDG_CACHE_HOME:-~/.cache}/contextscope/ci-native. Prints one line per addon.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const cacheRoot =
  process.env.CONTEXTSCOPE_CI_CACHE ||
  path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'contextscope', 'ci-native');

/** each addon with a use of it that fails unless its native binary loads and works */
const ADDONS = [
  {
    name: 'better-sqlite3',
    smoke:
      "const D=require('better-sqlite3');const db=new D(':memory:');if(db.prepare('select 41+1 as n').get().n!==42)process.exit(1)",
  },
  {
    name: 'zstd-napi',
    smoke:
      "const z=require('zstd-napi');const s=Buffer.from('contextscope '.repeat(50));if(!new z.Decompressor().decompress(z.compress(s)).equals(s))process.exit(1)",
  },
];

const packageDir = (name) => path.join(root, 'node_modules', name);
const releaseDir = (name) => path.join(packageDir(name), 'build', 'Release');

function cacheKey(name) {
  const { version } = JSON.parse(readFileSync(path.join(packageDir(name), 'package.json'), 'utf8'));
  return `${name}@${version}-${process.platform}-${process.arch}-abi${process.versions.modules}`;
}

function works(addon) {
  return spawnSync(process.execPath, ['-e', addon.smoke], { cwd: root, stdio: 'ignore' }).status === 0;
}

/** the `.node` files of a build (the rest, objects and static libraries, is only needed to link them) */
const builtBinaries = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.node')) : []);

function restore(addon, entry) {
  const binaries = builtBinaries(entry);
  if (binaries.length === 0) return false;
  mkdirSync(releaseDir(addon.name), { recursive: true });
  for (const file of binaries) cpSync(path.join(entry, file), path.join(releaseDir(addon.name), file));
  return works(addon);
}

/** writes the entry beside its final name and renames it, so a killed run never leaves half an entry */
function keep(addon, entry) {
  const staging = `${entry}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const file of builtBinaries(releaseDir(addon.name)))
    cpSync(path.join(releaseDir(addon.name), file), path.join(staging, file));
  rmSync(entry, { recursive: true, force: true });
  renameSync(staging, entry);
}

let failed = false;
const missing = [];
for (const addon of ADDONS) {
  const entry = path.join(cacheRoot, cacheKey(addon.name));
  if (restore(addon, entry)) console.log(`${addon.name}: cached build (${entry})`);
  else missing.push({ addon, entry });
}
if (missing.length > 0) {
  const names = missing.map((m) => m.addon.name);
  console.log(`building ${names.join(', ')} with node-gyp (npm rebuild; not in the cache)`);
  // JOBS: node-gyp's make runs both cores' worth of compilers (zstd is many files)
  const rebuilt = spawnSync('npm', ['rebuild', ...names, '--foreground-scripts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, JOBS: 'max' },
  });
  for (const { addon, entry } of missing) {
    if (rebuilt.status === 0 && works(addon)) {
      keep(addon, entry);
      console.log(`${addon.name}: built and kept (${entry})`);
    } else {
      console.error(`${addon.name}: the build failed or does not load (npm rebuild exit ${rebuilt.status})`);
      failed = true;
    }
  }
}
process.exit(failed ? 1 : 0);

/**
 * `npm run bench`: runs every bench/*.bench.ts in sequence, each in its own Node process (so one benchmark's
 * memory and JIT state never colour another's figures), and prints what they print. Benchmarks report figures
 * and whether targets were met; they are not tests. Extra arguments are passed to every benchmark; a name filter
 * can be given with --only <substring>.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error -- plain ESM helper shared with scripts/test.mjs (no type declarations)
import { ensureBuilt } from '../scripts/lib/buildState.mjs';

const dir = import.meta.dirname;
const args = process.argv.slice(2);
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? args[onlyAt + 1] : undefined;
const passThrough = onlyAt >= 0 ? [...args.slice(0, onlyAt), ...args.slice(onlyAt + 2)] : args;

// benchmarks measure what the app runs: the built engine host among others
ensureBuilt(join(dir, '..'));

const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.ts') && (!only || name.includes(only)))
  .sort();
if (files.length === 0) {
  console.error(`No benchmarks found in ${dir}${only ? ` matching "${only}"` : ''}.`);
  process.exit(2);
}

const failed: string[] = [];
for (const name of files) {
  console.log(`\n=== ${name} ===`);
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, name), ...passThrough], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed.push(`${name} (exit ${result.status ?? result.signal})`);
}
console.log(
  `\n${files.length - failed.length} benchmark(s) ran${failed.length ? `, ${failed.length} crashed: ${failed.join(', ')}` : ''}.`,
);
process.exit(failed.length ? 1 : 0);

// npm run test:repeat -- <project> <n> [--load cpu|copies|none] [--files <vitest filter>…]
// Runs one vitest project n times under load and lists every test that failed in any run, with how often: a test that
// fails only sometimes is flaky, and this finds it before CI does.
//   --load cpu     (default where stress-ng is installed) `stress-ng --cpu <cores> --cpu-load 75` beside each run
//   --load copies  (default otherwise) two copies of the project at once, each a run of its own
//   --load none    no extra load
// Reports go to test-results/repeat/<project>-<run>.json; the command exits 1 when any run had a failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './lib/buildState.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { load: { type: 'string' }, files: { type: 'string', multiple: true } },
});
const [project, countText] = positionals;
const runs = Number(countText);
if (!project || !Number.isInteger(runs) || runs < 1) {
  console.error('usage: npm run test:repeat -- <project> <n> [--load cpu|copies|none] [--files <filter>…]');
  process.exit(2);
}
const hasStressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
const load = values.load ?? (hasStressNg ? 'cpu' : 'copies');
if (!['cpu', 'copies', 'none'].includes(load)) {
  console.error(`--load must be cpu, copies or none (got ${load})`);
  process.exit(2);
}
if (load === 'cpu' && !hasStressNg) {
  console.error('--load cpu needs stress-ng (apt-get install -y stress-ng); --load copies needs nothing');
  process.exit(2);
}

ensureBuilt(root);
const reportDir = path.join(root, 'test-results', 'repeat');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');

/** One vitest run of the project; resolves with its JSON report's path. */
function runOnce(index) {
  const report = path.join(reportDir, `${project}-${index}.json`);
  const args = [
    vitest,
    'run',
    '--project',
    project,
    '--reporter=dot',
    '--reporter=json',
    `--outputFile.json=${report}`,
  ];
  const child = spawn(process.execPath, [...args, ...(values.files ?? [])], {
    cwd: root,
    env: { ...process.env, E2E_REQUIRED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return new Promise((resolve) => child.on('exit', () => resolve(report)));
}

function failuresOf(report) {
  if (!existsSync(report)) return ['(the run did not finish: no report)'];
  const json = JSON.parse(readFileSync(report, 'utf8'));
  const failed = [];
  for (const file of json.testResults ?? []) {
    const relative = path.relative(root, file.name);
    const inside = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of inside) failed.push(`${relative} > ${a.fullName}`);
    if (file.status === 'failed' && inside.length === 0) failed.push(`${relative} (failed to run)`);
  }
  return failed;
}

const stress =
  load === 'cpu'
    ? spawn('stress-ng', ['--cpu', String(os.availableParallelism()), '--cpu-load', '75', '--quiet'], {
        stdio: 'ignore',
      })
    : undefined;
const counts = new Map();
const started = Date.now();
try {
  for (let i = 0; i < runs; i += load === 'copies' ? 2 : 1) {
    const batch = load === 'copies' && i + 1 < runs ? [runOnce(i), runOnce(i + 1)] : [runOnce(i)];
    for (const report of await Promise.all(batch)) {
      const failed = failuresOf(report);
      console.log(`run ${path.basename(report, '.json')}: ${failed.length ? `${failed.length} failed` : 'passed'}`);
      for (const name of failed) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
} finally {
  stress?.kill('SIGTERM');
}
const seconds = ((Date.now() - started) / 1000).toFixed(0);
if (counts.size === 0) {
  console.log(`${project}: ${runs} runs under load "${load}" in ${seconds} s, no test failed`);
  process.exit(0);
}
console.log(`${project}: ${runs} runs under load "${load}" in ${seconds} s; tests that failed:`);
for (const [name, n] of [...counts].sort((a, b) => b[1] - a[1])) console.log(`  ${n}/${runs}  ${name}`);
process.exit(1);

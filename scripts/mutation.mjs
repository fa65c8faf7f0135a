// npm run mutation [-- --module <name> ...]: StrykerJS over the modules that guard trust and data (mutation/modules.mjs),
// one Stryker run per module, then the mutation score of each module. Exit 1 when a module scores under 90 %.
// Not part of npm test or CI: a module takes minutes (each mutant runs the tests that reach it).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MUTATION_MODULES, mutationModule } from '../mutation/modules.mjs';
import { ensureBuilt } from './lib/buildState.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const THRESHOLD = 90;
const { values } = parseArgs({ options: { module: { type: 'string', multiple: true } } });
const modules = values.module ? values.module.map(mutationModule) : MUTATION_MODULES;

checkCheckerFiles();
// the engine-host tests start the built host (a separate process: its mutants are killed by in-process tests)
ensureBuilt(ROOT);

const scores = [];
for (const module of modules) {
  console.log(`\n=== mutation: ${module.name} (${module.what}) ===`);
  const run = spawnSync('npx', ['stryker', 'run', 'mutation/stryker.config.mjs'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: {
      ...process.env,
      MUTATION_MODULE: module.name,
      MUTATION_ENGINE_HOST: path.join(ROOT, 'out/node/engine-host.mjs'),
    },
  });
  scores.push({ module, ...(run.status === 0 ? scoreOf(module) : { failed: `stryker exited ${run.status}` }) });
}

console.log('\nMutation score per module (killed + timed out) / (killed + timed out + survived + no coverage):');
for (const { module, failed, score, counts } of scores) {
  const figures =
    failed ??
    `${score.toFixed(1)} %  (${counts.detected} of ${counts.valid}; ${counts.survived} survived, ${counts.noCoverage} not covered, ${counts.invalid} not compiling)`;
  console.log(`  ${module.name.padEnd(18)} ${figures}`);
}
const below = scores.filter((entry) => entry.failed || entry.score < THRESHOLD);
if (below.length > 0) {
  console.log(`\nUnder ${THRESHOLD} %: ${below.map((entry) => entry.module.name).join(', ')}`);
  process.exit(1);
}

function scoreOf(module) {
  const report = JSON.parse(readFileSync(path.join(ROOT, `reports/mutation/${module.name}.json`), 'utf8'));
  const counts = { detected: 0, survived: 0, noCoverage: 0, invalid: 0, valid: 0 };
  for (const file of Object.values(report.files)) {
    for (const mutant of file.mutants) {
      if (mutant.status === 'Killed' || mutant.status === 'Timeout') counts.detected += 1;
      else if (mutant.status === 'Survived') counts.survived += 1;
      else if (mutant.status === 'NoCoverage') counts.noCoverage += 1;
      else counts.invalid += 1; // CompileError, RuntimeError, Ignored
    }
  }
  counts.valid = counts.detected + counts.survived + counts.noCoverage;
  return { score: counts.valid === 0 ? 100 : (100 * counts.detected) / counts.valid, counts };
}

// The TypeScript checker compiles mutation/tsconfig.json: the mutated files and what they import, not the project.
function checkCheckerFiles() {
  const listed = new Set(JSON.parse(readFileSync(path.join(ROOT, 'mutation/tsconfig.json'), 'utf8')).files);
  const missing = MUTATION_MODULES.flatMap((module) => module.mutate).filter((file) => !listed.has(`../${file}`));
  if (missing.length > 0) {
    console.error(`mutation/tsconfig.json does not list ${missing.join(', ')}: add them to its "files".`);
    process.exit(2);
  }
}

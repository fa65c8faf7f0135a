/**
 * StrykerJS for one mutation module ($MUTATION_MODULE, see modules.mjs): its vitest runner with per-test coverage
 * (each mutant runs only the tests that reach it) and the TypeScript checker (a mutant that does not compile is not
 * counted). `npm run mutation` runs this once per module and prints the scores.
 */
import { mutationModule } from './modules.mjs';

const module = mutationModule(process.env.MUTATION_MODULE ?? '');

export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.mutation.config.mjs', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'mutation/tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  mutate: module.mutate,
  concurrency: Number(process.env.MUTATION_CONCURRENCY) || 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${module.name}.json` },
  htmlReporter: { fileName: `reports/mutation/${module.name}.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: true },
  tempDirName: `.stryker-tmp/${module.name}`,
  cleanTempDir: true,
  ignorePatterns: ['out', 'test-results', 'reports', 'contextscope-recordings', 'resources/sessions-large'],
  thresholds: { high: 95, low: 90, break: null },
};

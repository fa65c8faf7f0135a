/**
 * The vitest configuration Stryker runs (`npm run mutation`): the node tests of one mutation module
 * ($MUTATION_MODULE), isolated per file as Stryker's per-test coverage needs, with the engine host the project built
 * (scripts/mutation.mjs builds it and passes its path: the host is a separate process, so mutants of its modules are
 * killed by the in-process tests of those modules).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { mutationModule } from './modules.mjs';

const root = path.resolve(import.meta.dirname, '..');
const module = mutationModule(process.env.MUTATION_MODULE ?? '');

export default defineConfig({
  root,
  test: {
    environment: 'node',
    include: module.tests.filter((file) => existsSync(path.join(root, file))),
    setupFiles: ['test/unit/propertySeed.ts'],
    env: process.env.MUTATION_ENGINE_HOST ? { CONTEXTSCOPE_ENGINE_HOST: process.env.MUTATION_ENGINE_HOST } : {},
    testTimeout: 30_000,
  },
});

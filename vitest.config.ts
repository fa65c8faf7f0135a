import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // Two node/renderer test files at a time (vitest's default on 2 cores is one: cores − 1); many of them wait on
    // child processes (engine hosts, tokenizer workers) more than they compute. VITEST_MAX_WORKERS overrides it. The
    // e2e files still run one at a time, after the others (fileParallelism: false puts them in vitest's sequential
    // group): beside other files on 2 loaded cores, streaming and timing-sensitive e2e tests failed.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'test/unit/**/*.test.ts',
            'test/conformance/**/*.test.ts',
            'test/main/**/*.test.ts',
            'test/differential/fixtures*.test.ts',
          ],
          setupFiles: ['test/unit/propertySeed.ts'],
          globalSetup: ['test/unit/ensureBuiltSetup.ts'],
          // engine hosts run the build, as users do, instead of compiling the sources with tsx in each host
          env: { CONTEXTSCOPE_ENGINE_HOST: path.resolve(import.meta.dirname, 'out/node/engine-host.mjs') },
          testTimeout: 30_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['test/renderer/setup.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts', 'test/electron/**/*.test.ts'],
          globalSetup: ['test/e2e/sharedChromium.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    // Two test files at a time, every project in one pool (vitest's default on 2 cores is one: cores − 1). Many files
    // wait on child processes (engine hosts, the built app, Chromium) more than they compute, and the e2e files run
    // beside the node and renderer ones instead of after them. VITEST_MAX_WORKERS overrides it.
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
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'test/unit/**/*.test.ts',
            'test/conformance/**/*.test.ts',
            'test/main/**/*.test.ts',
            'test/differential/fixtures.test.ts',
          ],
          setupFiles: ['test/unit/propertySeed.ts'],
          testTimeout: 30_000,
        },
      },
      {
        // real OpenClaw against ContextScope (test/differential): installs OpenClaw into the cache on first use
        test: {
          name: 'differential',
          environment: 'node',
          include: ['test/differential/differential.test.ts'],
          testTimeout: 900_000,
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
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

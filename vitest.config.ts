import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const NODE_FILES = [
  'test/unit/**/*.test.ts',
  'test/conformance/**/*.test.ts',
  'test/main/**/*.test.ts',
  'test/differential/fixtures*.test.ts',
];
const NODE_ISOLATED_FILES = [
  'test/main/**/*.test.ts',
  'test/unit/transcripts/streaming.test.ts',
  'test/unit/replay/followSession.test.ts',
  // installs the engine host's CommonJS coverage hook in its own process, as the host does
  'test/unit/plugins/moduleCoverage.test.ts',
];
const RENDERER_ISOLATED_FILES = [
  'test/renderer/budgetLegendRenders.test.tsx',
  'test/renderer/turnSwitch.test.tsx',
  'test/renderer/turnSwitchRenders.test.tsx',
];
const RENDERER = { environment: 'jsdom' as const, setupFiles: ['test/renderer/setup.ts'] };
const NODE = {
  environment: 'node' as const,
  setupFiles: ['test/unit/propertySeed.ts'],
  globalSetup: ['test/unit/ensureBuiltSetup.ts'],
  // engine hosts run the build, as users do, instead of compiling the sources with tsx in each host
  env: { CONTEXTSCOPE_ENGINE_HOST: path.resolve(import.meta.dirname, 'out/node/engine-host.mjs') },
  testTimeout: 30_000,
};

export default defineConfig({
  test: {
    // Two node/renderer test files at a time (vitest's default on 2 cores is one: cores − 1); many of them wait on
    // child processes (engine hosts, tokenizer workers) more than they compute. VITEST_MAX_WORKERS overrides it. The
    // e2e files run after the others: beside node files on 2 loaded cores, streaming and timing-sensitive e2e tests
    // failed.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 2,
    projects: [
      {
        test: {
          ...NODE,
          name: 'node',
          include: NODE_FILES,
          exclude: NODE_ISOLATED_FILES,
          // the node files share one module graph per worker instead of importing the sources again for each file
          // (a loaded CI run spent 262 s importing): 270 s instead of 427 for the project on 2 workers
          isolate: false,
        },
      },
      {
        // files that mock modules (electron, node:fs) or whose watchers time out in a shared graph: isolated
        test: { ...NODE, name: 'node-isolated', include: NODE_ISOLATED_FILES },
      },
      {
        plugins: [react()],
        test: {
          ...RENDERER,
          name: 'renderer',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          exclude: RENDERER_ISOLATED_FILES,
          // one jsdom and one module graph per worker instead of one per file (87 s → 32 s for the project on 2
          // workers); setup.ts puts every store back to its initial state after each test
          isolate: false,
        },
      },
      {
        plugins: [react()],
        // files that mock modules (vi.mock): a shared graph would give the mock to other files, or theirs to these
        test: { ...RENDERER, name: 'renderer-isolated', include: RENDERER_ISOLATED_FILES },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts', 'test/electron/**/*.test.ts'],
          globalSetup: ['test/e2e/sharedChromium.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // one file at a time, after the node and renderer files (vitest asks a group of its own for a project on
          // other workers): two at a time took 231 s instead of 254 on 2 cores (the app and Chromium already use both)
          // and put each file beside another's timing-sensitive steps
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          // the e2e files share a module graph per worker instead of importing it again for each file (5–9 s between
          // files in a loaded CI run): each file starts its own app and browser context, and shares no module state
          isolate: false,
        },
      },
    ],
  },
});

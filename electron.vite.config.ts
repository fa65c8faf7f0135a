import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      rollupOptions: {
        input: {
          electron: resolve(root, 'main/electron.ts'),
          // the first module of engine-host utility processes (main/electron/utilityProcessTransport.ts)
          'engine-host-utility': resolve(root, 'main/electron/engineHostUtilityEntry.ts'),
        },
        // Shared chunks stay beside electron.js: src/plugins finds out/node/engine-host.mjs relative to the module
        // it is bundled in (../node), which a chunks/ subfolder would break.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // Sandboxed preloads can require only 'electron' (and a few builtins): bundle everything else, emit CJS.
      externalizeDeps: false,
      rollupOptions: {
        input: { preload: resolve(root, 'main/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // electron-vite leaves renderer code unminified; the chart (recharts), Compare and Config are split off by
      // their dynamic imports (BudgetChart.tsx, AppFrame.tsx) and load when first shown
      minify: true,
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});

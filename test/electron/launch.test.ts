import path from 'node:path';
import { _electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { findElectronBinary } from '../../main/electronBinary';

const root = path.resolve(import.meta.dirname, '../..');
const binary = findElectronBinary(root);

if (!binary.found) {
  console.warn(
    `Electron launch smoke test skipped: ${binary.reason}. Set ELECTRON_OVERRIDE_DIST_PATH or ELECTRON_EXEC_PATH to run it.`,
  );
}

describe.skipIf(!binary.found)('Electron shell: launch smoke test', () => {
  it('opens the window and shows the runtime status from the bridge (IPC)', async () => {
    if (!binary.found) return;
    // Chromium refuses to run as root with its sandbox; CI containers run as root.
    const args = [root, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])];
    const app = await _electron.launch({ executablePath: binary.path, args, cwd: root });
    try {
      const window = await app.firstWindow();
      await window.getByTestId('runtime-status').filter({ hasText: 'connected' }).waitFor();
      expect(await window.getByTestId('app-shell').textContent()).toBe('Electron');
      expect(await window.getByTestId('runtime-host').textContent()).toBe('Electron main runtime');
      expect(window.url()).toBe('app://contextscope/index.html');
    } finally {
      await app.close();
    }
  });
});

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
      expect(window.url()).toMatch(/^app:\/\/contextscope\/index\.html(#\/overview)?$/);

      // the native menu the shell installs (main/electron/menu.ts)
      const menu = await app.evaluate(({ Menu }) =>
        (Menu.getApplicationMenu()?.items ?? []).map((item) => ({
          label: item.label,
          items: (item.submenu?.items ?? []).map((sub) => sub.label),
        })),
      );
      const file = menu.find((item) => item.label === 'File');
      expect(file?.items).toEqual(expect.arrayContaining(['Open Recording…', 'Open State Dir…']));
      expect(menu.find((item) => item.label === 'View')?.items).toEqual(expect.arrayContaining(['Theme']));

      // View › Theme › Dark reaches the page through the bridge's event channel
      await app.evaluate(({ Menu }) => {
        const view = Menu.getApplicationMenu()?.items.find((item) => item.label === 'View');
        const theme = view?.submenu?.items.find((item) => item.label === 'Theme');
        theme?.submenu?.items.find((item) => item.label === 'Dark')?.click();
      });
      await window.waitForFunction(() => document.documentElement.dataset.theme === 'dark');

      // a deep link in the hash works over app:// as in browser mode
      await window.evaluate(() => (globalThis.location.hash = '#/doctor'));
      await window
        .getByRole('navigation', { name: 'Sections' })
        .locator('[aria-current="page"]', { hasText: 'Doctor' })
        .waitFor();
    } finally {
      await app.close();
    }
  });
});

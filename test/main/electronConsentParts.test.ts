/** The Electron consent dialog's text and answer, and the dev-server URL rule: the pure parts of the shell. */
import { describe, expect, it } from 'vitest';
import { confirmInDialog, consentDialogOptions } from '../../main/electron/consentDialog';
import { devRendererUrl } from '../../main/electron/devRenderer';

const plugin = { pluginId: 'p', path: '/x/p', realPath: '/real/p', hash: 'abcdef0123456789', files: 4, bytes: 2048 };

describe('consent dialog', () => {
  it('names each plugin, its real folder and what its hash covers; Cancel is the default', () => {
    const options = consentDialogOptions({
      purpose: 'approve',
      plugins: [plugin, { ...plugin, pluginId: 'q', truncated: 'capped' }],
    });
    expect(options.message).toBe(
      'Approve these 2 plugins? Their code will run whenever a replay or the doctor uses them, until their files change.',
    );
    expect(options.detail).toContain('• p — /real/p\n   4 files, 2048 bytes, content hash abcdef012345');
    expect(options.detail).toContain('   capped');
    expect(options).toMatchObject({ buttons: ['Approve', 'Cancel'], defaultId: 1, cancelId: 1 });
    expect(consentDialogOptions({ purpose: 'run', plugins: [plugin] }).message).toBe(
      'Run this plugin for this run only?',
    );
  });

  it('agrees only when the first button was chosen', async () => {
    for (const [response, agreed] of [
      [0, true],
      [1, false],
    ] as const) {
      const ask = confirmInDialog(
        async () => ({ response, checkboxChecked: false }),
        () => null,
      );
      expect(await ask({ purpose: 'run', plugins: [plugin] })).toBe(agreed);
    }
  });
});

describe('dev renderer URL', () => {
  it.each([
    [{ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, false, undefined],
    [
      { ELECTRON_RENDERER_URL: 'http://localhost:5173', CONTEXTSCOPE_DEV_RENDERER: '1' },
      false,
      'http://localhost:5173/',
    ],
    [
      { ELECTRON_RENDERER_URL: 'http://127.0.0.1:5173/x', CONTEXTSCOPE_DEV_RENDERER: '1' },
      false,
      'http://127.0.0.1:5173/x',
    ],
    [{ ELECTRON_RENDERER_URL: 'http://localhost:5173', CONTEXTSCOPE_DEV_RENDERER: '1' }, true, undefined],
    [{ ELECTRON_RENDERER_URL: 'https://evil.example', CONTEXTSCOPE_DEV_RENDERER: '1' }, false, undefined],
    [{ ELECTRON_RENDERER_URL: 'http://localhost.evil.example', CONTEXTSCOPE_DEV_RENDERER: '1' }, false, undefined],
    [{ ELECTRON_RENDERER_URL: 'file:///tmp/index.html', CONTEXTSCOPE_DEV_RENDERER: '1' }, false, undefined],
    [{ ELECTRON_RENDERER_URL: 'not a url', CONTEXTSCOPE_DEV_RENDERER: '1' }, false, undefined],
  ])('%o packaged=%s → %s', (env, packaged, expected) => {
    expect(devRendererUrl(env, packaged)).toBe(expected);
  });
});

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { methods, PIECE_METHOD, UPLOAD_METHOD } from '../../src/bridge';
import { fake, resetFake } from './fakeElectron';

type Listener = (...args: unknown[]) => unknown;

vi.mock('electron', () => import('./fakeElectron').then((m) => m.electronModule()));

const { startElectronShell } = await import('../../main/electron/shell');

let outDir: string;
let logs: string[];

beforeEach(() => {
  outDir = mkdtempSync(path.join(tmpdir(), 'contextscope-electron-'));
  mkdirSync(path.join(outDir, 'renderer'), { recursive: true });
  writeFileSync(path.join(outDir, 'renderer', 'index.html'), '<!doctype html><title>ContextScope</title>');
  writeFileSync(path.join(outDir, 'secret.txt'), 'TOP SECRET');
  resetFake(path.join(outDir, 'userData'));
  logs = [];
});

afterEach(() => {
  delete process.env.ELECTRON_RENDERER_URL;
  delete process.env.CONTEXTSCOPE_DEV_RENDERER;
  rmSync(outDir, { recursive: true, force: true });
});

async function start() {
  return startElectronShell({ mainDir: path.join(outDir, 'main'), log: (line) => logs.push(line), argv: [] });
}

function mainWindowOptions() {
  expect(fake.state.windows).toHaveLength(1);
  return fake.state.windows[0]!.options;
}

/** A fake WebContents that records what the shell registers on it. */
function fakeWebContents() {
  const listeners = new Map<string, Listener>();
  let windowOpenHandler: Listener | undefined;
  return {
    contents: {
      on: (name: string, fn: Listener) => listeners.set(name, fn),
      setWindowOpenHandler: (fn: Listener) => (windowOpenHandler = fn),
    },
    listeners,
    windowOpenHandler: () => windowOpenHandler,
  };
}

function preventable() {
  const event = {
    prevented: false,
    preventDefault() {
      event.prevented = true;
    },
  };
  return event;
}

describe('Electron shell: BrowserWindow webPreferences', () => {
  it('enables contextIsolation', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.contextIsolation).toBe(true);
  });
  it('enables the sandbox', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.sandbox).toBe(true);
  });
  it('disables nodeIntegration', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.nodeIntegration).toBe(false);
  });
  it('disables nodeIntegration in workers and subframes', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.nodeIntegrationInWorker).toBe(false);
    expect(mainWindowOptions().webPreferences.nodeIntegrationInSubFrames).toBe(false);
  });
  it('keeps webSecurity on', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.webSecurity).toBe(true);
  });
  it('disallows insecure content', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.allowRunningInsecureContent).toBe(false);
  });
  it('disables the webview tag', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.webviewTag).toBe(false);
  });
  it('uses the CJS preload next to the main bundle', async () => {
    await start();
    expect(mainWindowOptions().webPreferences.preload).toBe(path.join(outDir, 'preload', 'preload.cjs'));
  });
  it('loads the renderer from app://contextscope, not file://', async () => {
    await start();
    expect(fake.state.windows[0]!.loadedUrl).toBe('app://contextscope/index.html');
  });
});

describe('Electron shell: Content-Security-Policy', () => {
  it('adds the CSP to every response, replacing one the response carried', async () => {
    await start();
    let result: { responseHeaders: Record<string, string[]> } | undefined;
    fake.state.headersReceived!(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } },
      (value: typeof result) => (result = value),
    );
    expect(Object.keys(result!.responseHeaders).sort()).toEqual(['Content-Security-Policy', 'X-Other']);
    const [policy] = result!.responseHeaders['Content-Security-Policy']!;
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
  });

  it('registers app:// as a standard secure scheme before the app is ready', async () => {
    await start();
    expect(fake.state.privilegedSchemes).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    expect(fake.state.calls.indexOf('registerSchemesAsPrivileged')).toBeLessThan(fake.state.calls.indexOf('whenReady'));
  });

  it('serves the renderer over app:// with the CSP header and 404s for traversal or other hosts', async () => {
    await start();
    const handler = fake.state.protocolHandlers.get('app')!;
    const index = (await handler({ url: 'app://contextscope/index.html' })) as Response;
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(await index.text()).toContain('<title>ContextScope</title>');
    for (const url of [
      'app://contextscope/..%2fsecret.txt',
      'app://contextscope/%2e%2e/secret.txt',
      'app://elsewhere/index.html',
    ]) {
      const response = (await handler({ url })) as Response;
      expect(response.status, url).toBe(404);
      expect(await response.text(), url).not.toContain('TOP SECRET');
    }
  });
});

describe('Electron shell: navigation, popups, permissions', () => {
  it('denies navigation of any web contents', async () => {
    await start();
    const web = fakeWebContents();
    fake.state.appListeners.get('web-contents-created')!({}, web.contents);
    const event = preventable();
    web.listeners.get('will-navigate')!(event, 'https://evil.example/');
    expect(event.prevented).toBe(true);
  });

  it('denies redirects and webview attachment', async () => {
    await start();
    const web = fakeWebContents();
    fake.state.appListeners.get('web-contents-created')!({}, web.contents);
    const redirect = preventable();
    web.listeners.get('will-redirect')!(redirect, 'https://evil.example/');
    const webview = preventable();
    web.listeners.get('will-attach-webview')!(webview, {}, {});
    expect([redirect.prevented, webview.prevented]).toEqual([true, true]);
  });

  it('denies window.open', async () => {
    await start();
    const web = fakeWebContents();
    fake.state.appListeners.get('web-contents-created')!({}, web.contents);
    expect(web.windowOpenHandler()!({ url: 'https://evil.example/' })).toEqual({ action: 'deny' });
  });

  it('denies every permission request', async () => {
    await start();
    const answers: boolean[] = [];
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read']) {
      fake.state.permissionRequestHandler!({}, permission, (granted: boolean) => answers.push(granted));
    }
    expect(answers).toEqual([false, false, false, false]);
  });

  it('denies every permission check', async () => {
    await start();
    expect(fake.state.permissionCheckHandler!({}, 'media', 'app://contextscope', {})).toBe(false);
  });

  it('denies screen capture (getDisplayMedia) and every device grant', async () => {
    await start();
    const answers: unknown[] = [];
    fake.state.displayMediaHandler!({ frame: null, videoRequested: true, audioRequested: true }, (streams: unknown) =>
      answers.push(streams),
    );
    expect(answers).toEqual([null]);
    expect(fake.state.devicePermissionHandler!({ deviceType: 'hid', origin: 'app://contextscope' })).toBe(false);
  });
});

describe('Electron shell: single instance', () => {
  it('quits without opening a window when another instance holds the lock', async () => {
    fake.state.singleInstance = false;
    expect(await start()).toBeNull();
    expect(fake.state.quit).toBe(1);
    expect(fake.state.windows).toEqual([]);
  });

  it('focuses the existing window when a second instance starts', async () => {
    await start();
    expect(fake.state.calls).toContain('requestSingleInstanceLock');
    fake.state.appListeners.get('second-instance')!({}, [], '');
    expect(fake.state.windows[0]!.focused).toBe(1);
  });
});

describe('Electron shell: the IPC bridge', () => {
  function invoke(method: string, frameUrl: string | null, params: unknown = {}) {
    const handler = fake.state.ipcHandlers.get(`bridge:call:${method}`);
    if (!handler) throw new Error(`no ipcMain handler for ${method}`);
    const sent: unknown[] = [];
    const event = {
      senderFrame: frameUrl === null ? null : { url: frameUrl },
      sender: { isDestroyed: () => false, send: (...args: unknown[]) => sent.push(args) },
    };
    return handler(event, params) as Promise<{ ok: boolean; result?: any; error?: any }>;
  }

  it("registers one ipcMain handler per bridge method and the dispatcher's bridge.piece and bridge.upload", async () => {
    await start();
    expect([...fake.state.ipcHandlers.keys()].sort()).toEqual(
      [...Object.keys(methods), PIECE_METHOD, UPLOAD_METHOD].map((name) => `bridge:call:${name}`).sort(),
    );
  });

  it('answers the app page with app.info for the Electron shell', async () => {
    await start();
    const outcome = await invoke('app.info', 'app://contextscope/index.html');
    expect(outcome).toMatchObject({ ok: true, result: { shell: 'electron', runtimeHost: 'electron-main' } });
  });

  it.each([
    ['a foreign web origin', 'https://evil.example/index.html'],
    ['a file:// page', 'file:///tmp/index.html'],
    ['another app:// host', 'app://evil/index.html'],
    ['a web page on a host named like the app', 'https://contextscope/index.html'],
    ['a destroyed frame', null],
  ])('refuses calls from %s', async (_label, frameUrl) => {
    await start();
    const outcome = await invoke('app.info', frameUrl);
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'forbidden',
        method: 'app.info',
        path: '',
        message:
          "app.info was called from a frame that is not the ContextScope app; the bridge only answers the app's own page.",
      },
    });
    expect(logs.some((line) => line.startsWith('bridge: refused app.info'))).toBe(true);
  });

  it('validates params before the handler runs', async () => {
    await start();
    const outcome = await invoke('app.info', 'app://contextscope/index.html', { unexpected: true });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'invalid_params', path: '/unexpected' } });
  });

  it('trusts the electron-vite dev server only with the dev flag, in an unpackaged app', async () => {
    process.env.ELECTRON_RENDERER_URL = 'http://localhost:5173';
    fake.state.isPackaged = false;
    await start();
    // without CONTEXTSCOPE_DEV_RENDERER=1 an inherited ELECTRON_RENDERER_URL is ignored
    expect(fake.state.windows[0]!.loadedUrl).toBe('app://contextscope/index.html');
    expect(await invoke('app.health', 'http://localhost:5173/')).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });

    process.env.CONTEXTSCOPE_DEV_RENDERER = '1';
    fake.state.windows.length = 0;
    await start();
    expect(fake.state.windows[0]!.loadedUrl).toBe('http://localhost:5173/');
    expect(await invoke('app.health', 'http://localhost:5173/')).toMatchObject({ ok: true });

    fake.state.windows.length = 0;
    fake.state.isPackaged = true;
    await start();
    expect(fake.state.windows[0]!.loadedUrl).toBe('app://contextscope/index.html');
    expect(await invoke('app.health', 'http://localhost:5173/')).toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    });
  });

  it('asks for consent to run plugin code in a native dialog of the main process', async () => {
    await start();
    const page = 'app://contextscope/index.html';
    const plugin = path.resolve('resources/plugins/recent-window');
    fake.state.messageBoxResponse = 1; // Cancel
    const declined = await invoke('plugins.requestConsent', page, { paths: [plugin], purpose: 'run' });
    expect(declined).toMatchObject({ ok: false, error: { code: 'consent_declined' } });
    expect(fake.state.messageBoxes).toHaveLength(1);
    const shown = fake.state.messageBoxes[0]!;
    expect(shown.parent).toBeTruthy(); // modal to the app window
    expect(shown.options).toMatchObject({ title: 'Run plugin code?', buttons: ['Run once', 'Cancel'], cancelId: 1 });
    expect(shown.options.detail).toContain(`recent-window — ${plugin}`);
    fake.state.messageBoxResponse = 0; // Run once
    const agreed = await invoke('plugins.requestConsent', page, { paths: [plugin], purpose: 'run' });
    expect(agreed).toMatchObject({
      ok: true,
      result: { purpose: 'run', nonce: expect.stringMatching(/^[0-9a-f]{48}$/) },
    });
  });
});

describe('Electron shell: window state', () => {
  const stateFile = () => path.join(fake.state.userData, 'window-state.json');

  it('opens with the default size when nothing was saved', async () => {
    await start();
    const options = mainWindowOptions();
    expect([options.x, options.y, options.width, options.height]).toEqual([undefined, undefined, 1280, 820]);
  });

  it('restores the saved bounds and maximized flag', async () => {
    mkdirSync(fake.state.userData, { recursive: true });
    writeFileSync(stateFile(), JSON.stringify({ x: 40, y: 30, width: 1000, height: 700, maximized: true }));
    await start();
    const options = mainWindowOptions();
    expect([options.x, options.y, options.width, options.height]).toEqual([40, 30, 1000, 700]);
    expect(fake.state.windows[0]!.maximized).toBe(true);
  });

  it('saves the normal bounds to userData/window-state.json when the window closes', async () => {
    await start();
    fake.state.windows[0]!.listeners.get('close')!();
    expect(JSON.parse(readFileSync(stateFile(), 'utf8'))).toEqual({
      x: 100,
      y: 80,
      width: 1300,
      height: 900,
      maximized: false,
    });
  });

  it('ignores a corrupt state file', async () => {
    mkdirSync(fake.state.userData, { recursive: true });
    writeFileSync(stateFile(), '{"width": "wide"');
    await start();
    expect(mainWindowOptions().width).toBe(1280);
  });

  it('drops a saved position that is on no display any more', async () => {
    mkdirSync(fake.state.userData, { recursive: true });
    writeFileSync(stateFile(), JSON.stringify({ x: 3000, y: 30, width: 1000, height: 700, maximized: false }));
    await start();
    const options = mainWindowOptions();
    expect([options.x, options.y, options.width]).toEqual([undefined, undefined, 1000]);
  });
});

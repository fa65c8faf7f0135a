import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, nativeTheme, protocol, screen, session } from 'electron';
import { createBridgeDispatcher } from '../../src/bridge';
import { buildContentSecurityPolicy } from '../contentSecurityPolicy';
import { createHandlers } from '../handlers';
import { registerAppScheme, serveAppProtocol } from './appProtocol';
import { confirmInDialog } from './consentDialog';
import { devRendererUrl } from './devRenderer';
import { registerBridgeIpc } from './ipcBridge';
import { createUtilityProcessTransport, UTILITY_ENGINE_HOST_FILE } from './utilityProcessTransport';
import {
  APP_ORIGIN,
  APP_TRUSTED_ORIGIN,
  denyAllPermissions,
  enforceContentSecurityPolicy,
  hardenWebContents,
  isTrustedSenderUrl,
  secureWebPreferences,
  type TrustedOrigin,
} from './security';
import { listenForOpenedFiles, openFilesOfArgv, wireShell } from './shellWiring';
import { fitToDisplays, readWindowState, WINDOW_STATE_FILE, writeWindowState, type WindowState } from './windowState';
import { errorMessage, errorStack } from '../../src/common/errorText';

export interface ElectronShellOptions {
  /** Folder of the built main bundle (out/main); preload and renderer are its siblings. */
  mainDir: string;
  log?: (line: string) => void;
  /** the command line, whose .json / .jsonl files open once the window is up (default: process.argv) */
  argv?: readonly string[];
}

export interface ElectronShell {
  window: BrowserWindow;
}

/**
 * The Electron shell: single instance, hardened web contents, permissions denied, CSP on every response, the
 * renderer served from app://contextscope, the bridge over IPC with sender checks, window bounds remembered, the
 * native menu, dropped and OS-opened files and recent documents (shellWiring.ts).
 * Resolves with null when another instance already runs (this one quits).
 */
export async function startElectronShell(options: ElectronShellOptions): Promise<ElectronShell | null> {
  const log = options.log ?? ((line: string) => console.error(line));
  const outDir = path.resolve(options.mainDir, '..');
  const preloadPath = path.join(outDir, 'preload', 'preload.cjs');
  const rendererDir = path.join(outDir, 'renderer');
  // electron-vite's dev server: only with CONTEXTSCOPE_DEV_RENDERER=1, unpackaged, on this machine (devRenderer.ts)
  const devUrl = devRendererUrl(process.env, app.isPackaged);

  registerAppScheme(protocol);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }

  let mainWindow: BrowserWindow | null = null;
  app.on('second-instance', (_event, argv: string[], cwd: string) => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
    openFilesOfArgv(argv ?? [], cwd || process.cwd());
  });
  listenForOpenedFiles();
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('window-all-closed', () => app.quit());

  await app.whenReady();

  const policy = buildContentSecurityPolicy();
  denyAllPermissions(session.defaultSession);
  enforceContentSecurityPolicy(session.defaultSession, policy);
  serveAppProtocol(protocol, rendererDir, policy);

  const trusted: TrustedOrigin[] = [APP_TRUSTED_ORIGIN];
  if (devUrl) {
    const dev = new URL(devUrl);
    trusted.push({ protocol: dev.protocol, host: dev.host });
  }
  const dispatcher = createShellDispatcher(options.mainDir, log, () => mainWindow);
  registerBridgeIpc(ipcMain, dispatcher, (event) => isTrustedSenderUrl(event.senderFrame?.url, trusted), log);

  const stateFile = path.join(app.getPath('userData'), WINDOW_STATE_FILE);
  const state = fitToDisplays(
    readWindowState(stateFile),
    screen.getAllDisplays().map((display) => display.workArea),
  );
  mainWindow = new BrowserWindow({
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'ContextScope',
    autoHideMenuBar: false,
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#15171c' : '#f7f8fa',
    webPreferences: secureWebPreferences(preloadPath),
  });
  const window = mainWindow;
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  wireShell(window, options.argv ?? process.argv);
  window.on('close', () => {
    try {
      writeWindowState(stateFile, captureWindowState(window));
    } catch (error) {
      log(`Could not save the window position to ${stateFile}: ${errorMessage(error)}`);
    }
  });
  window.on('closed', () => {
    mainWindow = null;
  });
  await window.loadURL(devUrl ?? `${APP_ORIGIN}/index.html`);
  return { window };
}

/** The bridge table as the Electron shell serves it: utilityProcess engine hosts, consent in a native dialog. */
function createShellDispatcher(mainDir: string, log: (line: string) => void, window: () => BrowserWindow | null) {
  return createBridgeDispatcher(
    createHandlers({
      shell: 'electron',
      runtimeHost: 'electron-main',
      electronVersion: process.versions.electron,
      prestartTokenizer: true,
      engineHostTransport: createUtilityProcessTransport({
        adapterEntry: path.join(mainDir, UTILITY_ENGINE_HOST_FILE),
      }),
      // consent to run plugin code is given in a native dialog of this process, never by the renderer alone
      confirmConsent: confirmInDialog(
        (parent, options) => (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options)),
        window,
      ),
      log,
    }),
    { onHandlerError: (error, method) => log(`bridge: ${method} threw: ${errorStack(error)}`) },
  );
}

function captureWindowState(window: BrowserWindow): WindowState {
  const bounds = window.getNormalBounds();
  return { x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height, maximized: window.isMaximized() };
}

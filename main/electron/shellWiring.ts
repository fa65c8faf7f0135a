import { app, dialog, Menu, nativeTheme, type BrowserWindow } from 'electron';
import { buildAppMenu } from './menu';
import { droppedFilePath, filesInArgv } from './openedFiles';
import { createShellCommander, type ShellCommander } from './shellCommands';

/** Files the OS asked to open before the window existed (macOS sends open-file before ready). */
const early: string[] = [];
let current: ShellCommander | null = null;

/** Registers the OS's "open this file" requests; call before app.whenReady (macOS sends them that early). */
export function listenForOpenedFiles(): void {
  app.on('open-file', (event, file) => {
    event.preventDefault();
    if (current) current.openPath(file);
    else early.push(file);
  });
}

/** Opens the files a second instance was started with (its argv) in this window. */
export function openFilesOfArgv(argv: readonly string[], cwd: string): void {
  for (const file of filesInArgv(argv, cwd)) current?.openPath(file);
}

/**
 * The shell's first-class parts around the window: the native menu, files dropped on the window (Chromium navigates
 * to their file:// URL, which the shell stops and opens instead), files the OS or the command line hands over, the
 * OS's recent documents.
 */
export function wireShell(
  window: BrowserWindow,
  argv: readonly string[],
  platform: NodeJS.Platform = process.platform,
): ShellCommander {
  const commander = createShellCommander({
    target: () => (window.isDestroyed() ? null : window.webContents),
    addRecentDocument: (file) => app.addRecentDocument(file),
    chooseFile: async () => {
      const answer = await dialog.showOpenDialog(window, {
        title: 'Open a recording or a session',
        properties: ['openFile'],
        filters: [
          { name: 'Recordings and sessions', extensions: ['json', 'jsonl'] },
          { name: 'All files', extensions: ['*'] },
        ],
      });
      return answer.canceled ? null : (answer.filePaths[0] ?? null);
    },
    chooseFolder: async () => {
      const answer = await dialog.showOpenDialog(window, {
        title: 'Open an OpenClaw state dir',
        properties: ['openDirectory'],
      });
      return answer.canceled ? null : (answer.filePaths[0] ?? null);
    },
    setNativeTheme: (theme) => {
      nativeTheme.themeSource = theme;
    },
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(buildAppMenu(commander, platform)));
  window.webContents.on('will-navigate', (event, url) => {
    const file = droppedFilePath(url);
    if (!file) return;
    event.preventDefault();
    commander.openPath(file);
  });
  current = commander;
  for (const file of early.splice(0)) commander.openPath(file);
  openFilesOfArgv(argv, process.cwd());
  return commander;
}

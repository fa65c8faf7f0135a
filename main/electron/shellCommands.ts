import { IPC_EVENT_CHANNEL } from '../../src/bridge/ipcChannels';
import type { ShellCommand } from '../../src/bridge/methods/shell';
import type { MenuActions } from './menu';
import { openedFileCommand } from './openedFiles';

/** The parts of a BrowserWindow's WebContents the commander uses. */
export interface CommandTarget {
  isDestroyed(): boolean;
  isLoading(): boolean;
  send(channel: string, ...args: unknown[]): void;
  once(event: 'did-finish-load', listener: () => void): unknown;
}

export interface ShellCommanderOptions {
  target(): CommandTarget | null;
  /** the OS's recent documents list (app.addRecentDocument) */
  addRecentDocument(file: string): void;
  /** native open dialogs; resolve with the chosen path, or null when cancelled */
  chooseFile(): Promise<string | null>;
  chooseFolder(): Promise<string | null>;
  /** the native window background follows a theme chosen from the menu (nativeTheme.themeSource) */
  setNativeTheme(theme: 'system' | 'light' | 'dark'): void;
}

export interface ShellCommander extends MenuActions {
  /** a file from a drop, the OS (open-file, a second instance) or the open dialog */
  openPath(file: string): void;
  send(command: ShellCommand): void;
}

/**
 * Turns menu items, dropped files and OS open requests into `shell.command` events on the bridge's event channel
 * (the page handles them in renderer/src/router/shellCommands.ts). Commands that arrive before the page has loaded
 * wait for it. Every file that opens goes to the OS's recent documents.
 */
export function createShellCommander(options: ShellCommanderOptions): ShellCommander {
  const send = (command: ShellCommand) => {
    const target = options.target();
    if (!target || target.isDestroyed()) return;
    const deliver = () => target.send(IPC_EVENT_CHANNEL, { type: 'event', topic: 'shell.command', payload: command });
    if (target.isLoading()) target.once('did-finish-load', deliver);
    else deliver();
  };
  const openPath = (file: string) => {
    const command = openedFileCommand(file);
    if (command.command === 'openFile') options.addRecentDocument(file);
    send(command);
  };
  return {
    send,
    openPath,
    openRecording: () => void options.chooseFile().then((file) => file && openPath(file)),
    openStateDir: () => void options.chooseFolder().then((dir) => dir && send({ command: 'openStateDir', path: dir })),
    setTheme: (theme) => {
      options.setNativeTheme(theme);
      send({ command: 'setTheme', theme });
    },
    showShortcuts: () => send({ command: 'showShortcuts' }),
    showPalette: () => send({ command: 'showPalette' }),
  };
}

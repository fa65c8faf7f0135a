import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openRecording(): void;
  openStateDir(): void;
  setTheme(theme: 'system' | 'light' | 'dark'): void;
  showShortcuts(): void;
  showPalette(): void;
}

/**
 * The native menu: File › Open recording… / Open state dir… (and Open Recent on macOS), Edit, View › Theme and the
 * command palette, Help › Keyboard shortcuts. Each app item calls one action; the shell turns them into
 * `shell.command` events for the page. Built from plain data so it is tested without Electron.
 */
export function buildAppMenu(actions: MenuActions, platform: NodeJS.Platform): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const file: MenuItemConstructorOptions[] = [
    { label: 'Open Recording…', accelerator: 'CmdOrCtrl+O', click: () => actions.openRecording() },
    { label: 'Open State Dir…', accelerator: 'CmdOrCtrl+Shift+O', click: () => actions.openStateDir() },
  ];
  if (mac) file.push({ role: 'recentDocuments', submenu: [{ role: 'clearRecentDocuments' }] });
  file.push({ type: 'separator' }, mac ? { role: 'close' } : { role: 'quit' });
  const theme: MenuItemConstructorOptions[] = [
    { label: 'Follow the System', click: () => actions.setTheme('system') },
    { label: 'Light', click: () => actions.setTheme('light') },
    { label: 'Dark', click: () => actions.setTheme('dark') },
  ];
  return [
    ...(mac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    { label: 'File', submenu: file },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        // Ctrl/Cmd+K reaches the page as a key too; the menu names it so it can be found
        { label: 'Command Palette…', accelerator: 'CmdOrCtrl+K', click: () => actions.showPalette() },
        { label: 'Theme', submenu: theme },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        { role: 'toggleDevTools' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [{ label: 'Keyboard Shortcuts', click: () => actions.showShortcuts() }] },
  ];
}

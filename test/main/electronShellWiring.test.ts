/**
 * The Electron shell as a first-class desktop shell, without an Electron binary: the native menu, files dropped on
 * the window or handed over by the OS, the OS's recent documents — each turned into a `shell.command` event on the
 * bridge's event channel, which is what the page handles.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSchemaCompiler, eventTopics, IPC_EVENT_CHANNEL } from '../../src/bridge';
import { fake, resetFake } from './fakeElectron';

type Listener = (...args: unknown[]) => unknown;
type MenuItem = { label?: string; role?: string; accelerator?: string; click?: () => void; submenu?: MenuItem[] };

vi.mock('electron', () => import('./fakeElectron').then((m) => m.electronModule()));

const { startElectronShell } = await import('../../main/electron/shell');
const checkCommand = createSchemaCompiler()(eventTopics['shell.command']);

let dir: string;
let recordingFile: string;
let sessionFile: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-electron-wiring-'));
  mkdirSync(path.join(dir, 'out', 'renderer'), { recursive: true });
  writeFileSync(path.join(dir, 'out', 'renderer', 'index.html'), '<!doctype html><title>ContextScope</title>');
  recordingFile = path.join(dir, 'run.recording.json');
  writeFileSync(recordingFile, '{"schemaVersion":1}');
  sessionFile = path.join(dir, 'abc.jsonl');
  writeFileSync(sessionFile, '{"type":"session","version":3}\n');
  resetFake(path.join(dir, 'userData'));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function start(argv: string[] = []) {
  await startElectronShell({ mainDir: path.join(dir, 'out', 'main'), log: () => {}, argv });
  return fake.state.windows[0]!;
}

/** The shell.command payloads the window's page was sent, each checked against the event's schema. */
function commandsSent(window: { webContents?: { sent: unknown[][] } }) {
  return window.webContents!.sent.map(([channel, event]) => {
    expect(channel).toBe(IPC_EVENT_CHANNEL);
    const { topic, payload } = event as { topic: string; payload: unknown };
    expect(topic).toBe('shell.command');
    expect(checkCommand(payload)).toBeNull();
    return payload as Record<string, unknown>;
  });
}

function menuItem(labels: string[]): MenuItem {
  let items = fake.state.menu!.template as MenuItem[];
  let found: MenuItem | undefined;
  for (const label of labels) {
    found = items.find((item) => item.label === label || item.role === label);
    if (!found) throw new Error(`no menu item ${labels.join(' › ')}`);
    items = found.submenu ?? [];
  }
  return found!;
}

describe('Electron shell: native menu', () => {
  it('has File › Open Recording… / Open State Dir…, View › Theme, Help › Keyboard Shortcuts, and shows the menu bar', async () => {
    const window = await start();
    expect(window.options.autoHideMenuBar).toBe(false);
    expect(menuItem(['File', 'Open Recording…']).accelerator).toBe('CmdOrCtrl+O');
    expect(menuItem(['File', 'Open State Dir…'])).toBeTruthy();
    expect(
      menuItem(['View', 'Theme'])
        .submenu!.map((item) => item.label)
        .join(', '),
    ).toBe('Follow the System, Light, Dark');
    expect(menuItem(['help', 'Keyboard Shortcuts'])).toBeTruthy();
  });

  it('View › Theme › Dark tells the page and sets the native theme; Help › Keyboard Shortcuts opens the sheet', async () => {
    const window = await start();
    menuItem(['View', 'Theme', 'Dark']).click!();
    menuItem(['help', 'Keyboard Shortcuts']).click!();
    menuItem(['View', 'Command Palette…']).click!();
    expect(commandsSent(window)).toEqual([
      { command: 'setTheme', theme: 'dark' },
      { command: 'showShortcuts' },
      { command: 'showPalette' },
    ]);
    expect(fake.state.themeSource).toBe('dark');
  });

  it('File › Open Recording… sends the chosen recording with its text and adds it to the recent documents', async () => {
    const window = await start();
    fake.state.dialogAnswer = { canceled: false, filePaths: [recordingFile] };
    menuItem(['File', 'Open Recording…']).click!();
    await vi.waitFor(() => expect(commandsSent(window)).toHaveLength(1));
    expect(fake.state.dialogOptions[0]!.properties).toEqual(['openFile']);
    expect(commandsSent(window)).toEqual([
      { command: 'openFile', kind: 'recording', path: recordingFile, content: '{"schemaVersion":1}' },
    ]);
    expect(fake.state.recentDocuments).toEqual([recordingFile]);
  });

  it('File › Open State Dir… sends the folder; a cancelled dialog sends nothing', async () => {
    const window = await start();
    menuItem(['File', 'Open State Dir…']).click!();
    await Promise.resolve();
    expect(commandsSent(window)).toEqual([]);
    fake.state.dialogAnswer = { canceled: false, filePaths: [dir] };
    menuItem(['File', 'Open State Dir…']).click!();
    await vi.waitFor(() => expect(commandsSent(window)).toEqual([{ command: 'openStateDir', path: dir }]));
    expect(fake.state.dialogOptions.at(-1)!.properties).toEqual(['openDirectory']);
  });
});

describe('Electron shell: files dropped on the window or opened by the OS', () => {
  function navigate(window: { webContents?: { listeners: Map<string, Listener> } }, url: string) {
    const event = { prevented: false, preventDefault: () => (event.prevented = true) };
    window.webContents!.listeners.get('will-navigate')!(event, url);
    return event;
  }

  it('a dropped .jsonl opens as a session by path, a dropped recording with its text; both become recent documents', async () => {
    const window = await start();
    expect(navigate(window, pathToFileURL(sessionFile).href).prevented).toBe(true);
    navigate(window, pathToFileURL(recordingFile).href);
    expect(commandsSent(window)).toEqual([
      { command: 'openFile', kind: 'session', path: sessionFile },
      { command: 'openFile', kind: 'recording', path: recordingFile, content: '{"schemaVersion":1}' },
    ]);
    expect(fake.state.recentDocuments).toEqual([sessionFile, recordingFile]);
  });

  it('a dropped file of another kind is a problem the page shows, and not a recent document', async () => {
    const window = await start();
    const other = path.join(dir, 'notes.txt');
    writeFileSync(other, 'hello');
    navigate(window, pathToFileURL(other).href);
    expect(commandsSent(window)).toEqual([
      {
        command: 'problem',
        message: `${other} is neither a recording (.json) nor a session transcript (.jsonl), so ContextScope cannot open it.`,
      },
    ]);
    expect(fake.state.recentDocuments).toEqual([]);
  });

  it('other navigations are left to the hardening (no command)', async () => {
    const window = await start();
    navigate(window, 'https://evil.example/');
    expect(commandsSent(window)).toEqual([]);
  });

  it('opens a file from the command line, one from a second instance, and one the OS sends (open-file)', async () => {
    const window = await start(['electron', '.', '--no-sandbox', recordingFile]);
    fake.state.appListeners.get('second-instance')!({}, ['electron', sessionFile], dir);
    const event = { preventDefault: () => {} };
    fake.state.appListeners.get('open-file')!(event, sessionFile);
    expect(commandsSent(window).map((c) => [c.command, c.kind])).toEqual([
      ['openFile', 'recording'],
      ['openFile', 'session'],
      ['openFile', 'session'],
    ]);
  });

  it('waits for the page to finish loading before it sends a command', async () => {
    const window = await start();
    window.webContents!.loading = true;
    menuItem(['help', 'Keyboard Shortcuts']).click!();
    expect(window.webContents!.sent).toEqual([]);
    window.webContents!.listeners.get('did-finish-load')!();
    expect(commandsSent(window)).toEqual([{ command: 'showShortcuts' }]);
  });
});

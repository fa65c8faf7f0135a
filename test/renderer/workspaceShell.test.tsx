/**
 * The app-wide habits of the renderer: deep links in the URL hash (both ways, back/forward, a recording opened
 * through the registered opener), the one shortcut table behind the handlers and the sheet, the command palette,
 * the theme choice and the Electron shell's commands.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BridgeEvent } from '../../src/bridge';
import { CommandPalette } from '../../renderer/src/components/CommandPalette';
import { ShortcutSheet } from '../../renderer/src/components/ShortcutSheet';
import { filterCommands, type PaletteCommand } from '../../renderer/src/model/paletteCommands';
import { installRecording } from '../../renderer/src/flows/installRecording';
import { registerRecordingOpener, startDeepLinks } from '../../renderer/src/router/deepLinks';
import { formatHash, parseHash } from '../../renderer/src/router/hashRoute';
import { handleShellEvent } from '../../renderer/src/router/shellCommands';
import { keyLabel, matchShortcut, SHORTCUTS, shortcutsByScope } from '../../renderer/src/shortcuts';
import { resetAppStore, useAppStore } from '../../renderer/src/store/appStore';
import { useOverlayStore } from '../../renderer/src/store/overlayStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { initTheme, THEME_STORAGE_KEY, useThemeStore } from '../../renderer/src/theme';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { makeRecording } from './recordingFixture';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

beforeEach(() => {
  resetAppStore();
  resetReplayStore();
  resetSelectionStore();
  useOverlayStore.setState({ open: null, problem: null });
  window.history.replaceState(null, '', '/');
});

describe('deep links: the hash', () => {
  it('round-trips view, recording, session, lane, 1-based turn and message', () => {
    const route = { section: 'replay' as const, recording: 'r 1', session: 'child', lane: 'legacy', turn: 4 };
    const hash = formatHash({ ...route, message: 'assembled:3' });
    expect(hash).toBe('#/replay?recording=r+1&session=child&lane=legacy&turn=5&message=assembled%3A3');
    expect(parseHash(hash)).toEqual({ ...route, message: 'assembled:3' });
  });

  it('names no route for an unknown view or an empty hash, and drops a turn that is not a positive number', () => {
    expect(parseHash('')).toBeNull();
    expect(parseHash('#/nowhere')).toBeNull();
    expect(parseHash('#/replay?turn=0')).toEqual({ section: 'replay' });
    expect(parseHash('#/replay?turn=abc')).toEqual({ section: 'replay' });
  });
});

describe('deep links: kept in step with the app', () => {
  let stop: () => void = () => {};
  afterEach(() => {
    stop();
    registerRecordingOpener(null);
  });

  it('writes what is shown to the hash, one history entry per turn (once the switch is drawn)', async () => {
    installRecording(makeRecording(), 'rec-1', 'demo');
    act(() => useAppStore.getState().selectSection('replay'));
    stop = startDeepLinks(null);
    expect(window.location.hash).toBe('#/replay?recording=rec-1&lane=legacy&turn=1');
    const before = window.history.length;
    act(() => useSelectionStore.getState().selectTurn(2));
    await waitFor(() => expect(window.location.hash).toBe('#/replay?recording=rec-1&lane=legacy&turn=3'));
    expect(window.history.length).toBe(before + 1);
    act(() => useSelectionStore.getState().toggleExpanded('assembled:1'));
    await waitFor(() =>
      expect(window.location.hash).toBe('#/replay?recording=rec-1&lane=legacy&turn=3&message=assembled%3A1'),
    );
    expect(window.history.length).toBe(before + 1);
  });

  it('applies a hash that arrives (back/forward, typed): view, lane, turn and message', async () => {
    installRecording(makeRecording(), 'rec-1', 'demo');
    stop = startDeepLinks(null);
    window.history.replaceState(null, '', '#/replay?recording=rec-1&lane=recent-window&turn=2&message=assembled%3A0');
    await act(async () => window.dispatchEvent(new PopStateEvent('popstate')));
    expect(useAppStore.getState().activeSection).toBe('replay');
    const selection = useSelectionStore.getState();
    expect([selection.laneId, selection.turn, Object.keys(selection.expanded)]).toEqual([
      'recent-window',
      1,
      ['assembled:0'],
    ]);
  });

  it('opens the recording a link names through the registered opener, and says so when it cannot', async () => {
    const opener = vi.fn(async (id: string) => {
      if (id !== 'kept-on-disk') return false;
      installRecording(makeRecording(), id, 'from disk');
      return true;
    });
    registerRecordingOpener(opener);
    window.history.replaceState(null, '', '#/replay?recording=kept-on-disk&turn=3');
    stop = startDeepLinks(null);
    await vi.waitFor(() => expect(useSelectionStore.getState().turn).toBe(2));
    expect(useReplayStore.getState().recordingReplayId).toBe('kept-on-disk');
    window.history.replaceState(null, '', '#/replay?recording=gone&turn=1');
    await act(async () => window.dispatchEvent(new HashChangeEvent('hashchange')));
    expect(opener).toHaveBeenLastCalledWith('gone');
    expect(useOverlayStore.getState().problem).toContain('recording gone, which is not available');
  });

  it('a link wins over a recording other code installs meanwhile (the latest one restored at start)', async () => {
    const opener = vi.fn(async (id: string) => {
      installRecording(makeRecording(), id, id);
      return true;
    });
    registerRecordingOpener(opener);
    window.history.replaceState(null, '', '#/replay?recording=linked&turn=3');
    stop = startDeepLinks(null);
    await vi.waitFor(() => expect(useSelectionStore.getState().turn).toBe(2));
    act(() => installRecording(makeRecording(), 'latest', 'restored'));
    await vi.waitFor(() => expect(useReplayStore.getState().recordingReplayId).toBe('linked'));
    await vi.waitFor(() => expect(useSelectionStore.getState().turn).toBe(2));
    // once the user moves on, the link is no longer pending: another recording simply shows
    act(() => useSelectionStore.getState().selectTurn(0));
    act(() => installRecording(makeRecording(), 'chosen', 'from the list'));
    await Promise.resolve();
    expect(useReplayStore.getState().recordingReplayId).toBe('chosen');
    expect(opener).toHaveBeenCalledTimes(2);
  });

  it('asks the runtime for a replay it still holds when no opener is registered', async () => {
    const fake = createFakeInspectorClient({
      'replay.get': ({ replayId }) => ({ replayId, status: 'done', done: 3, total: 3, recording: makeRecording() }),
    });
    window.history.replaceState(null, '', '#/replay?recording=srv-7&turn=2');
    stop = startDeepLinks(fake.client);
    await vi.waitFor(() => expect(useReplayStore.getState().recordingReplayId).toBe('srv-7'));
    expect(useSelectionStore.getState().turn).toBe(1);
  });
});

describe('shortcuts: one table', () => {
  it('matches plain keys without modifiers, Mod+ keys with Ctrl or Cmd, and ? with Shift', () => {
    expect(matchShortcut(key('j'), ['turn.next', 'turn.previous'])).toBe('turn.next');
    expect(matchShortcut(key('j', { ctrlKey: true }), ['turn.next'])).toBeNull();
    expect(matchShortcut(key('k', { ctrlKey: true }), ['palette'])).toBe('palette');
    expect(matchShortcut(key('K', { metaKey: true }), ['palette'])).toBe('palette');
    expect(matchShortcut(key('k'), ['palette'])).toBeNull();
    expect(matchShortcut({ ...key('?'), shiftKey: true } as never, ['shortcuts'])).toBe('shortcuts');
  });

  it('the sheet lists every entry of the table with its keys', () => {
    render(<ShortcutSheet groups={shortcutsByScope()} onClose={() => {}} />);
    const rows = screen.getAllByTestId('shortcut-row');
    expect(rows).toHaveLength(SHORTCUTS.length);
    SHORTCUTS.forEach((shortcut, i) => {
      expect(rows[i]!.textContent).toContain(shortcut.description);
      for (const k of shortcut.keys) expect(rows[i]!.textContent).toContain(keyLabel(k, false));
    });
  });

  it('the Replay keys come from the table: l is "next lane" there', () => {
    expect(SHORTCUTS.find((s) => s.id === 'lane.next')!.keys).toContain('l');
  });
});

describe('command palette', () => {
  const commands = (runs: string[]): PaletteCommand[] =>
    [1, 4, 14, 40].map((n) => ({ id: `t${n}`, group: 'Turn', label: `Turn ${n}`, run: () => runs.push(`t${n}`) }));

  it('finds by word starts: "turn 4" is Turn 4 and Turn 40, not Turn 14', () => {
    expect(filterCommands(commands([]), 'turn 4').map((c) => c.label)).toEqual(['Turn 4', 'Turn 40']);
    expect(filterCommands(commands([]), '').map((c) => c.label)).toEqual(['Turn 1', 'Turn 4', 'Turn 14', 'Turn 40']);
  });

  it('↓ then Enter runs the second match and closes; Escape closes', () => {
    const runs: string[] = [];
    const onClose = vi.fn();
    render(<CommandPalette commands={commands(runs)} onClose={onClose} />);
    const input = within(screen.getByRole('dialog', { name: 'Command palette' })).getByRole('combobox');
    fireEvent.change(input, { target: { value: 'turn 4' } });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(runs).toEqual(['t40']);
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });
});

describe('theme and the shell commands', () => {
  const fake = createFakeInspectorClient({}, 'preload');
  const shell = (payload: unknown) =>
    handleShellEvent({ type: 'event', topic: 'shell.command', payload } as BridgeEvent, fake.client);

  afterEach(() => {
    window.localStorage.clear();
    delete document.documentElement.dataset.theme;
  });

  it('a stored choice applies before the first render; "system" removes it', () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    initTheme();
    expect([useThemeStore.getState().choice, document.documentElement.dataset.theme]).toEqual(['dark', 'dark']);
    useThemeStore.getState().setChoice('system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
  });

  it('View › Theme from the native menu sets and keeps the theme; Help › shortcuts opens the sheet', () => {
    expect(shell({ command: 'setTheme', theme: 'light' })).toBe(true);
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    shell({ command: 'showShortcuts' });
    expect(useOverlayStore.getState().open).toBe('shortcuts');
  });

  it('an opened recording file shows in Replay; a file that is not one says why', async () => {
    const recording = makeRecording();
    shell({ command: 'openFile', kind: 'recording', path: '/tmp/run.json', content: JSON.stringify(recording) });
    await vi.waitFor(() => expect(useReplayStore.getState().recording?.session.sessionId).toBe('sess-1'));
    expect(useAppStore.getState().activeSection).toBe('replay');
    shell({ command: 'openFile', kind: 'recording', path: '/tmp/notes.json', content: '{"a":1}' });
    await vi.waitFor(() => expect(useOverlayStore.getState().problem).toContain('/tmp/notes.json'));
    expect(handleShellEvent({ type: 'event', topic: 'progress', payload: {} } as BridgeEvent, fake.client)).toBe(false);
  });
});

describe('the app frame: global keys', () => {
  it('? opens the shortcut sheet, Ctrl+K the palette, whose "Doctor" goes to that view', async () => {
    const { AppFrame } = await import('../../renderer/src/views/AppFrame');
    const { ClientContext } = await import('../../renderer/src/bridge/ClientContext');
    const fake = createFakeInspectorClient({});
    render(
      <ClientContext.Provider value={fake.client}>
        <AppFrame />
      </ClientContext.Provider>,
    );
    fireEvent.keyDown(document.body, { key: '?' });
    expect(screen.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Keyboard shortcuts' }), { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).toBeNull();
    fireEvent.keyDown(document.body, { key: 'k', ctrlKey: true });
    const input = within(screen.getByRole('dialog', { name: 'Command palette' })).getByRole('combobox');
    fireEvent.change(input, { target: { value: 'doctor' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(useAppStore.getState().activeSection).toBe('doctor');
    expect(window.location.hash).toBe('#/doctor');
  });
});

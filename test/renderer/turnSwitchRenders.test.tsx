/**
 * What a turn switch draws again: not the workspace around the panes (only the chart's cursor, the timeline and the
 * turn detail follow the turn), not the message rows that show the same message in both turns, and the detail pane
 * is scrolled back to its top only when it is not there (setting scrollTop lays the page out at once).
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as BadgeModule from '../../renderer/src/components/ProvenanceBadge';
import type * as WorkspaceModule from '../../renderer/src/components/ReplayWorkspace';
import { buildTurnDetail } from '../../renderer/src/model/turnDetail';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { makeRecording } from './recordingFixture';

const counts = vi.hoisted(() => ({ workspace: 0, badges: 0 }));

// the real components, their renders counted
vi.mock('../../renderer/src/components/ReplayWorkspace', async (importOriginal) => {
  const real = await importOriginal<typeof WorkspaceModule>();
  return {
    ...real,
    ReplayWorkspace: (props: WorkspaceModule.ReplayWorkspaceProps) => {
      counts.workspace += 1;
      return real.ReplayWorkspace(props);
    },
  };
});

vi.mock('../../renderer/src/components/ProvenanceBadge', async (importOriginal) => {
  const real = await importOriginal<typeof BadgeModule>();
  return {
    ...real,
    ProvenanceBadge: (props: Parameters<typeof real.ProvenanceBadge>[0]) => {
      counts.badges += 1;
      return real.ProvenanceBadge(props);
    },
  };
});

const press = (key: string) => fireEvent.keyDown(window, { key });
const heading = () => screen.getByRole('heading', { level: 2, name: /^Turn/ }).textContent;
const shownKeys = () =>
  Array.from(screen.getByTestId('messages-assembled').querySelectorAll('[data-testid="message-row"]')).map((row) =>
    row.getAttribute('data-key'),
  );

function showTurn(turn: number) {
  const recording = makeRecording();
  useReplayStore.setState({ recording, recordingTitle: 'demo', recordingReplayId: 'r1' });
  useSelectionStore.getState().reset('sess-1', 'legacy');
  useSelectionStore.getState().selectTurn(turn);
  render(<ReplayView />);
  return recording;
}

beforeEach(() => {
  resetReplayStore();
  resetSelectionStore();
  counts.workspace = 0;
  counts.badges = 0;
});

describe('a turn switch', () => {
  it('leaves the workspace around the panes alone', () => {
    showTurn(0);
    const settled = counts.workspace;
    expect(settled).toBeGreaterThan(0);
    press('j');
    press('j');
    expect(heading()).toBe('Turn 3 of 3');
    expect(screen.getByTestId('budget-chart-cursor').getAttribute('data-turn')).toBe('2');
    expect(counts.workspace).toBe(settled);
  }, 30_000);

  it('draws again only the message rows that differ from the turn before', () => {
    const recording = showTurn(1);
    const before = buildTurnDetail(recording, 'legacy', 1)!.assembled;
    const after = buildTurnDetail(recording, 'legacy', 2)!.assembled;
    const same = after.filter((row, i) => before[i]?.key === row.key && before[i]?.provenance === row.provenance);
    expect(same.length).toBeGreaterThan(0);
    counts.badges = 0;
    press('j');
    expect(heading()).toBe('Turn 3 of 3');
    expect(shownKeys()).toEqual(after.map((row) => row.key));
    expect(counts.badges).toBe(after.length - same.length);
  }, 30_000);

  it('scrolls the detail pane back to its top, and writes nothing when it is there', () => {
    showTurn(0);
    const pane = screen.getByTestId('pane-detail');
    let top = 0;
    let writes = 0;
    Object.defineProperty(pane, 'scrollTop', {
      configurable: true,
      get: () => top,
      set: (value: number) => {
        writes += 1;
        top = value;
      },
    });
    press('j');
    expect(heading()).toBe('Turn 2 of 3');
    expect(writes).toBe(0);
    top = 400;
    fireEvent.scroll(pane);
    press('j');
    expect(heading()).toBe('Turn 3 of 3');
    expect(top).toBe(0);
    expect(writes).toBe(1);
  }, 30_000);
});

describe('a turn’s detail', () => {
  it('builds its left-out lists when they are first read (opened), their lengths known before', () => {
    const recording = makeRecording();
    const detail = buildTurnDetail(recording, 'recent-window', 2)!;
    // a getter until read: a switch that shows the collapsed lists builds none of their rows
    expect(typeof Object.getOwnPropertyDescriptor(detail, 'summarized')?.get).toBe('function');
    expect(typeof Object.getOwnPropertyDescriptor(detail, 'dropped')?.get).toBe('function');
    expect([detail.summarizedCount, detail.droppedCount]).toEqual([2, 1]);
    expect(detail.summarized.map((row) => row.key)).toEqual(['u1', 'a1']);
    expect(detail.summarized).toBe(detail.summarized);
    expect(detail.dropped).toHaveLength(detail.droppedCount);
  });

  it('opens a left-out list with its rows, its count shown while it is closed', () => {
    useReplayStore.setState({ recording: makeRecording(), recordingTitle: 'demo', recordingReplayId: 'r1' });
    useSelectionStore.getState().reset('sess-1', 'recent-window');
    useSelectionStore.getState().selectTurn(2);
    render(<ReplayView />);
    const section = screen.getByTestId('left-out-section');
    expect(section.querySelector('.turn-section__count')?.textContent).toBe('3');
    expect(screen.queryByTestId('messages-summarized')).toBeNull();
    const summary = Array.from(section.querySelectorAll('summary')).find((s) =>
      s.textContent?.startsWith('Summarized'),
    )!;
    expect(summary.textContent).toBe('Summarized 2');
    // jsdom does not open a <details> on a click: what the browser does, then its toggle event
    const details = summary.parentElement as HTMLDetailsElement;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const rows = screen.getByTestId('messages-summarized').querySelectorAll('[data-testid="message-row"]');
    expect(Array.from(rows).map((row) => row.getAttribute('data-key'))).toEqual(['u1', 'a1']);
  }, 30_000);
});

import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AlignedTable } from '../../renderer/src/components/AlignedTable';
import { cellDetail } from '../../renderer/src/model/compareCellDetail';
import { parseRecordingFile } from '../../renderer/src/model/recordingFile';
import { resetCompareStore, useCompareStore } from '../../renderer/src/store/compareStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { CompareView } from '../../renderer/src/views/CompareView';
import { shortSpec } from '../../renderer/src/views/useCompareModel';
import { alignTurn, compareLanes, displayItems } from '../../src/view';
import { ViewRecording } from '../unit/view/viewRecording';
import { makeRecording } from './recordingFixture';

// jsdom lays nothing out: give elements a size so the virtualized lists have a viewport to fill
const sized = ['clientWidth', 'clientHeight'] as const;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 1000 });
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 520 });
});
afterAll(() => {
  // the overrides sit on HTMLElement.prototype; jsdom's own getters (on Element.prototype) show again
  for (const prop of sized) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[prop];
});

function rowStatuses(rowId: string): (string | null)[] {
  const row = screen.getAllByTestId('aligned-row').find((r) => r.getAttribute('data-row-id') === rowId)!;
  return within(row)
    .getAllByTestId('aligned-cell')
    .map((cell) => cell.getAttribute('data-status'));
}

describe('CompareView', () => {
  beforeEach(() => {
    useReplayStore.setState({ recording: makeRecording(), recordingTitle: 'demo', recordingReplayId: 'r1' });
    useSelectionStore.getState().reset('sess-1', 'legacy');
    useSelectionStore.getState().selectTurn(2);
  });
  afterEach(() => {
    resetReplayStore();
    resetSelectionStore();
    resetCompareStore();
  });

  it('aligns the selected turn: one row per message with each lane’s status, the summary before its span', () => {
    render(<CompareView />);
    expect(screen.getByTestId('compare-difference').textContent).toBe(
      '≠ recent-window left out 3 messages that legacy sent; summarized 2; sent 2 that legacy did not; 1 message sent differently; a different system prompt addition',
    );
    const ids = screen.getAllByTestId('aligned-row').map((r) => r.getAttribute('data-row-id'));
    expect(ids).toEqual(['summary:0-2', 'u1', 'a1', 'u2', 'a2', 't2', 'synthetic:custom:memory']);
    expect(rowStatuses('summary:0-2')).toEqual(['absent', 'summary']);
    expect(rowStatuses('u1')).toEqual(['sent', 'summarized']);
    expect(rowStatuses('a2')).toEqual(['sent', 'dropped']);
    expect(rowStatuses('t2')).toEqual(['sent', 'modified']);
    const u1 = screen.getAllByTestId('aligned-row').find((r) => r.getAttribute('data-row-id') === 'u1')!;
    expect(within(u1).getAllByTestId('cell-status')[1]!.textContent).toBe('↳summarized → 1');
  });

  it('shows the quarantined lane’s banner and its system prompt addition in the column head', () => {
    render(<CompareView />);
    const [legacy, plugin] = screen.getAllByTestId('aligned-head');
    expect(within(legacy!).queryByTestId('quarantine-banner')).toBeNull();
    expect(within(plugin!).getByTestId('quarantine-banner').textContent).toBe(
      '⚠ Quarantined. recent-window was quarantined in assemble at turn 3: boom. The lane runs on legacy from then on.',
    );
    expect(within(plugin!).getByText(/System prompt addition/).textContent).toBe('System prompt addition (35 chars)');
  });

  it('opens a modified message in the side panel with a text diff against the transcript', () => {
    render(<CompareView />);
    const t2 = screen.getAllByTestId('aligned-row').find((r) => r.getAttribute('data-row-id') === 't2')!;
    fireEvent.click(within(t2).getAllByTestId('aligned-cell')[1]!);
    const panel = screen.getByTestId('compare-panel');
    expect(within(panel).getByRole('heading').textContent).toBe('Row 6 · toolResult');
    const diff = within(panel).getAllByTestId('text-diff')[0]!;
    expect(diff.textContent).toContain('Against the transcript');
    expect([...diff.querySelectorAll('del')].map((d) => d.textContent).join('')).toContain('PASS 12 tests');
    expect([...diff.querySelectorAll('ins')].map((d) => d.textContent).join('')).toContain('[truncated]');
  });

  it('filters the turns to those where the lanes differ, and moves with j/k and [/]', () => {
    render(<CompareView />);
    const toggle = screen.getByTestId('only-differing');
    expect(toggle.closest('label')!.textContent).toBe('Only turns where lanes differ (1 of 3)');
    expect(screen.getAllByTestId('compare-turn').map((t) => t.getAttribute('data-turn'))).toEqual(['0', '1', '2']);
    fireEvent.click(toggle);
    expect(screen.getAllByTestId('compare-turn').map((t) => t.getAttribute('data-turn'))).toEqual(['2']);
    fireEvent.click(toggle);
    act(() => {
      fireEvent.keyDown(window, { key: 'k' });
    });
    expect(useSelectionStore.getState().turn).toBe(1);
    expect(screen.getByText('Turn 2 of 3')).toBeTruthy();
    act(() => {
      fireEvent.keyDown(window, { key: ']' });
    });
    expect(useCompareStore.getState().column).toBe(1);
    expect(useSelectionStore.getState().laneId).toBe('recent-window');
  });

  it('compares against a previous replay of the same session, lane by lane', () => {
    const old = makeRecording();
    old.turns['recent-window']![2]!.systemPromptAddition = null;
    useReplayStore.setState({ previous: [{ replayId: 'r0', title: 'demo', recording: old, finishedAt: 0 }] });
    render(<CompareView />);
    const picker = screen.getByTestId('compare-baseline') as HTMLSelectElement;
    expect([...picker.options].map((o) => o.value)).toEqual(['', 'r0']);
    fireEvent.change(picker, { target: { value: 'r0' } });
    expect(screen.getAllByTestId('aligned-head').map((h) => h.getAttribute('data-column'))).toEqual([
      'old:legacy',
      'new:legacy',
      'old:recent-window',
      'new:recent-window',
    ]);
    expect(screen.getByTestId('compare-difference').textContent).toBe(
      '≠ recent-window (new): a different system prompt addition',
    );
    expect(screen.getByTestId('only-differing').closest('label')!.textContent).toBe(
      'Only turns where lanes differ (1 of 3)',
    );
  });
});

describe('AlignedTable', () => {
  it('keeps only the rows in view in the DOM for a turn of 1,000 aligned messages', () => {
    const keys = Array.from({ length: 1000 }, (_, i) => `${i % 2 ? 'a' : 'u'}${i}`);
    const rec = new ViewRecording(keys)
      .lane('legacy', [{ history: 1000, assembled: keys }])
      .lane('window', [{ history: 1000, assembled: keys.filter((_, i) => i % 2 === 0) }])
      .build();
    const aligned = alignTurn(compareLanes(rec), 0);
    const items = displayItems(aligned.rows);
    expect(items).toHaveLength(1000);
    render(
      <AlignedTable
        aligned={aligned}
        items={items}
        colors={['#000', '#111']}
        selectedRowId={null}
        selectedColumn={0}
        onSelectCell={() => {}}
        onSelectColumn={() => {}}
        onToggleFold={() => {}}
        height={520}
      />,
    );
    const rendered = screen.getAllByTestId('aligned-row');
    expect(rendered.length).toBeGreaterThan(10);
    expect(rendered.length).toBeLessThan(60);
    expect(screen.getByTestId('aligned-table').getAttribute('aria-rowcount')).toBe('1001');
  });
});

describe('compare models', () => {
  it('gives the side panel the lane’s copy and a diff against another lane’s different copy', () => {
    const rec = makeRecording();
    const aligned = alignTurn(compareLanes(rec), 2);
    const t2 = aligned.rows.findIndex((r) => r.id === 't2');
    const detail = cellDetail(aligned, t2, 0)!;
    expect(detail.status).toBe('sent');
    expect(detail.diffs.map((d) => d.title)).toEqual(["Against recent-window's copy"]);
    const dropped = cellDetail(
      aligned,
      aligned.rows.findIndex((r) => r.id === 'a2'),
      1,
    )!;
    expect([dropped.status, dropped.position, dropped.text]).toEqual([
      'dropped',
      null,
      '[thinking] Run vitest.\n→ exec({"command":"npm test"})',
    ]);
  });

  it('reads a recording file and says what is wrong with one that is not', () => {
    expect(parseRecordingFile('{', 'x.json')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^x\.json is not JSON/),
    });
    expect(parseRecordingFile('{"schemaVersion":3}', 'x.json')).toEqual({
      ok: false,
      problem: 'x.json is a recording of schema version 3; this ContextScope reads versions 1 and 2.',
    });
    expect(parseRecordingFile(JSON.stringify(makeRecording()), 'x.json').ok).toBe(true);
  });

  it('shortens lane specs to what tells them apart', () => {
    expect(shortSpec('plugin:/home/me/plugins/recent-window?config=/tmp/a/tight.json&label=rw')).toBe(
      'plugin:recent-window?config=tight.json&label=rw',
    );
  });
});

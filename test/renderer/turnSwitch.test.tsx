/**
 * A turn switch redraws only what shows the turn: the budget chart's plot does not re-render (its cursor moves),
 * and each turn's detail is built once (returning to a turn reuses it). No timing here: speed is bench/ui.bench.ts.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { memo, type FunctionComponent } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as PlotModule from '../../renderer/src/components/BudgetChartPlot';
import type { BudgetChartPlotProps } from '../../renderer/src/components/BudgetChartPlot';
import type * as TurnDetailModule from '../../renderer/src/model/turnDetail';
import { buildTurnDetail } from '../../renderer/src/model/turnDetail';
import { cachedTurnDetail } from '../../renderer/src/model/turnDetailCache';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { makeRecording } from './recordingFixture';

const plot = vi.hoisted(() => ({ renders: 0 }));

// the real plot, its render counted: the same function behind the same memo comparison
vi.mock('../../renderer/src/components/BudgetChartPlot', async (importOriginal) => {
  const real = await importOriginal<typeof PlotModule>();
  const memoised = real.BudgetChartPlot as unknown as {
    type: FunctionComponent<BudgetChartPlotProps>;
    compare: ((a: BudgetChartPlotProps, b: BudgetChartPlotProps) => boolean) | null;
  };
  const Counted = (props: BudgetChartPlotProps) => {
    plot.renders += 1;
    return memoised.type(props);
  };
  return { ...real, BudgetChartPlot: memo(Counted, memoised.compare ?? undefined) };
});

vi.mock('../../renderer/src/model/turnDetail', async (importOriginal) => {
  const real = await importOriginal<typeof TurnDetailModule>();
  return { ...real, buildTurnDetail: vi.fn(real.buildTurnDetail) };
});

const built = vi.mocked(buildTurnDetail);

function showRecording() {
  useReplayStore.setState({ recording: makeRecording(), recordingTitle: 'demo', recordingReplayId: 'r1' });
  useSelectionStore.getState().reset('sess-1', 'legacy');
  return render(<ReplayView />);
}

const press = (key: string) => fireEvent.keyDown(window, { key });
const cursorTurn = () => screen.getByTestId('budget-chart-cursor').getAttribute('data-turn');
const heading = () => screen.getByRole('heading', { level: 2, name: /^Turn/ }).textContent;

beforeEach(() => {
  resetReplayStore();
  resetSelectionStore();
  plot.renders = 0;
  built.mockClear();
});

describe('turn switch', () => {
  it('moves the chart cursor without re-rendering the plot', async () => {
    const { container } = showRecording();
    await waitFor(() => expect(container.querySelectorAll('.recharts-line').length).toBeGreaterThan(0), {
      timeout: 15_000,
    });
    const settled = plot.renders;
    expect(settled).toBeGreaterThan(0);
    press('j');
    press('j');
    expect(cursorTurn()).toBe('2');
    expect(heading()).toBe('Turn 3 of 3');
    press('k');
    expect(cursorTurn()).toBe('1');
    expect(plot.renders).toBe(settled);
    // what the plot draws does change it: the counter sees renders
    fireEvent.click(screen.getByRole('radio', { name: 'tiktoken' }));
    expect(plot.renders).toBeGreaterThan(settled);
  }, 30_000);

  it('builds each turn’s detail once: going back to a turn reuses it', () => {
    showRecording();
    press('j');
    press('k');
    press('j');
    press('j');
    press('k');
    expect(heading()).toBe('Turn 2 of 3');
    const calls = built.mock.calls.map(([, lane, turn]) => `${lane}:${turn}`);
    expect(calls.sort()).toEqual(['legacy:0', 'legacy:1', 'legacy:2']);
  }, 30_000);

  it('keeps one detail per recording, lane and turn', () => {
    const recording = makeRecording();
    const first = cachedTurnDetail(recording, 'recent-window', 2);
    expect(first).not.toBeNull();
    expect(cachedTurnDetail(recording, 'recent-window', 2)).toBe(first);
    expect(cachedTurnDetail(recording, 'legacy', 2)).not.toBe(first);
    // another Recording (a streaming replay's next one) builds its own
    expect(cachedTurnDetail(makeRecording(), 'recent-window', 2)).not.toBe(first);
    expect(built).toHaveBeenCalledTimes(3);
  });
});

describe('the turn detail’s message list', () => {
  it('renders only the rows in view of the detail pane, and an opened row wherever it is', () => {
    const recording = makeRecording();
    const record = recording.turns['legacy']![2]!;
    const ref = record.assembled[0]!;
    record.assembled = Array.from({ length: 400 }, () => ({ ...ref }));
    useReplayStore.setState({ recording, recordingTitle: 'long', recordingReplayId: 'r2' });
    useSelectionStore.getState().reset('sess-1', 'legacy');
    useSelectionStore.getState().selectTurn(2);
    useSelectionStore.setState({ expanded: { 'assembled:300': true } });
    render(<ReplayView />);
    const table = screen.getByTestId('messages-assembled');
    const rows = Array.from(table.querySelectorAll('[data-testid="message-row"]'));
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(80);
    const indexes = rows.map((row) => Number(row.getAttribute('data-index')));
    expect(indexes.slice(0, 10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(indexes.at(-1)).toBe(300);
    expect(rows.at(-1)!.querySelector('[data-testid="message-full"]')).not.toBeNull();
  }, 30_000);
});

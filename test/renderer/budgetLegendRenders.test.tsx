/**
 * The budget chart's legend on a turn switch: nothing it shows changes (lanes, marker counts, the bands' note), so a
 * switch does not render it again — only the chart's cursor moves. A change it shows (the token count) still does.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as LegendModule from '../../renderer/src/components/BudgetLegend';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { makeRecording } from './recordingFixture';

const renders = vi.hoisted(() => ({ legend: 0 }));

vi.mock('../../renderer/src/components/BudgetLegend', async (importOriginal) => {
  const real = await importOriginal<typeof LegendModule>();
  const { counted } = await import('./renderCounter');
  return { ...real, BudgetLegend: counted(real.BudgetLegend, () => (renders.legend += 1)) };
});

const press = (key: string) => fireEvent.keyDown(window, { key });
const cursorTurn = () => screen.getByTestId('budget-chart-cursor').getAttribute('data-turn');
const caption = () => screen.getByTestId('budget-caption').textContent;

beforeEach(() => {
  resetReplayStore();
  resetSelectionStore();
  renders.legend = 0;
  useReplayStore.setState({ recording: makeRecording(), recordingTitle: 'demo', recordingReplayId: 'r1' });
  useSelectionStore.getState().reset('sess-1', 'legacy');
});

describe('the budget legend', () => {
  it('is not rendered again by turn switches', () => {
    render(<ReplayView />);
    const settled = renders.legend;
    expect(settled).toBeGreaterThan(0);
    const walk = ['j', 'j', 'k', 'j', 'k', 'k'];
    const seen = walk.map((key) => {
      press(key);
      return cursorTurn();
    });
    // the switches happened: the cursor followed every one
    expect(seen).toEqual(['1', '2', '1', '2', '1', '0']);
    act(() => useSelectionStore.getState().selectTurn(2));
    expect(cursorTurn()).toBe('2');
    expect(renders.legend).toBe(settled);
  }, 30_000);

  it('is rendered again when what it shows changes (the token count)', () => {
    render(<ReplayView />);
    const settled = renders.legend;
    expect(caption()).toMatch(/^precheck estimate of the prompt/);
    act(() => useSelectionStore.getState().setMeasure('tiktoken'));
    expect(caption()).toMatch(/^assembled messages, tiktoken counts/);
    expect(renders.legend).toBeGreaterThan(settled);
  }, 30_000);
});

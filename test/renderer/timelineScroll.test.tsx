/**
 * The timeline keeps the selected row in view from the virtualizer's cached geometry (no layout is read on a switch):
 * a step past the last row in view scrolls by one row, End to the last row (whose rows are rendered before the
 * scroll), Home back to the top; a row in view does not scroll; rows are rendered in blocks, so a step rarely adds
 * or drops one. jsdom has no layout, so the scroller is given the box a browser would lay out (its scroll height
 * and client height) and scroll events are fired as a browser would after a scroll.
 */
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TimelineTable, TIMELINE_ROW_HEIGHT } from '../../renderer/src/components/TimelineTable';
import { lanesOfSession } from '../../renderer/src/model/recordingLanes';
import { buildTimelineRows, type TimelineRow } from '../../renderer/src/model/timelineRows';
import { makeRecording } from './recordingFixture';

const HEAD = 58;
const IN_VIEW = 10;
const COUNT = 500;
const recording = makeRecording();
const template = buildTimelineRows(recording, lanesOfSession(recording, 'sess-1'))[1]!;
const rows: TimelineRow[] = Array.from({ length: COUNT }, (_, turn) => ({ ...template, turn }));
const lanes = [
  { id: 'legacy', label: 'legacy', color: '#4c6ef5' },
  { id: 'recent-window', label: 'recent-window', color: '#e8590c' },
];

function timelineAt(selectedTurn: number) {
  return (
    <TimelineTable
      lanes={lanes}
      rows={rows}
      selectedTurn={selectedTurn}
      onSelectTurn={() => {}}
      height={HEAD + IN_VIEW * TIMELINE_ROW_HEIGHT}
    />
  );
}

/** The scroller with the box a browser gives it: as tall as the height passed, its content as tall as every row. */
function laidOut(scroller: HTMLElement): HTMLElement {
  const box = { clientHeight: HEAD + IN_VIEW * TIMELINE_ROW_HEIGHT, scrollHeight: HEAD + COUNT * TIMELINE_ROW_HEIGHT };
  for (const [name, value] of Object.entries(box)) Object.defineProperty(scroller, name, { value, configurable: true });
  return scroller;
}

const selectedRow = () => document.querySelector('[data-testid="timeline-row"][aria-selected="true"]');

describe('the timeline keeps the selected row in view', () => {
  it('scrolls by one row on a step past the last row in view, not at all for a row in view', async () => {
    const view = render(timelineAt(0));
    const scroller = laidOut(screen.getByTestId('timeline'));
    view.rerender(timelineAt(IN_VIEW - 1));
    await new Promise((done) => requestAnimationFrame(() => done(null)));
    expect(scroller.scrollTop).toBe(0);
    view.rerender(timelineAt(IN_VIEW));
    // a row the overscan already rendered scrolls in the next frame
    await waitFor(() => expect(scroller.scrollTop).toBe(TIMELINE_ROW_HEIGHT));
    fireEvent.scroll(scroller);
    view.rerender(timelineAt(IN_VIEW + 1));
    await waitFor(() => expect(scroller.scrollTop).toBe(2 * TIMELINE_ROW_HEIGHT));
  });

  it('renders rows in blocks: scrolling by one row keeps the same rows', () => {
    render(timelineAt(12));
    const scroller = laidOut(screen.getByTestId('timeline'));
    const shown = () => screen.getAllByTestId('timeline-row').map((row) => row.getAttribute('data-turn'));
    scroller.scrollTop = 9 * TIMELINE_ROW_HEIGHT;
    fireEvent.scroll(scroller);
    const before = shown();
    scroller.scrollTop = 10 * TIMELINE_ROW_HEIGHT;
    fireEvent.scroll(scroller);
    expect(shown()).toEqual(before);
    expect(before[0]).toBe('0');
    // … until the overscan crosses a block (row 14 at the top below the head: the overscan of 6 reaches row 8)
    scroller.scrollTop = HEAD + 14 * TIMELINE_ROW_HEIGHT;
    fireEvent.scroll(scroller);
    expect(shown()[0]).toBe('8');
  });

  it('End renders the last rows before it scrolls to them; Home goes back to the top', async () => {
    const view = render(timelineAt(0));
    const scroller = laidOut(screen.getByTestId('timeline'));
    view.rerender(timelineAt(COUNT - 1));
    // the rows a jump brings into view are rendered with the selection, before the scroll (in the next frame)
    expect(selectedRow()?.getAttribute('data-turn')).toBe(String(COUNT - 1));
    const shown = () => screen.getAllByTestId('timeline-row').map((row) => Number(row.getAttribute('data-turn')));
    expect(shown()).toEqual(expect.arrayContaining([COUNT - IN_VIEW, COUNT - 1]));
    await waitFor(() => expect(scroller.scrollTop).toBe(COUNT * TIMELINE_ROW_HEIGHT - IN_VIEW * TIMELINE_ROW_HEIGHT));
    fireEvent.scroll(scroller);
    // once scrolled there, the first rows are no longer rendered
    await waitFor(() => expect(shown()[0]).toBeGreaterThan(COUNT - 3 * IN_VIEW));
    view.rerender(timelineAt(0));
    expect(selectedRow()?.getAttribute('data-turn')).toBe('0');
    await waitFor(() => expect(scroller.scrollTop).toBe(0));
  });

  it('counts a scroll it wrote before the browser reported it (j then k within one frame)', async () => {
    const view = render(timelineAt(0));
    const scroller = laidOut(screen.getByTestId('timeline'));
    view.rerender(timelineAt(COUNT - 1));
    const end = COUNT * TIMELINE_ROW_HEIGHT - IN_VIEW * TIMELINE_ROW_HEIGHT;
    await waitFor(() => expect(scroller.scrollTop).toBe(end));
    // no scroll event yet: the row above the last is in view of the scroll written, so nothing moves
    view.rerender(timelineAt(COUNT - 2));
    await new Promise((done) => requestAnimationFrame(() => done(null)));
    expect(scroller.scrollTop).toBe(end);
  });
});

import { describe, expect, it } from 'vitest';
import {
  chartHeightAtLeast,
  markerRows,
  MIN_PLOT_HEIGHT,
  MIN_ZOOM_TURNS,
  panRange,
  plotArea,
  spreadMarkGroups,
  turnAtPoint,
  xOfTurn,
  yAxisTop,
  zoomRange,
} from '../../renderer/src/components/budgetChartGeometry';
import { buildBudgetSeries } from '../../renderer/src/model/budgetSeries';
import { lanesOfSession } from '../../renderer/src/model/recordingLanes';
import { makeRecording } from './recordingFixture';

describe('budget chart geometry', () => {
  const width = 948; // plot area 52 .. 932 (880 px)
  const height = 200;

  it('maps a click inside the plot to the nearest turn of the range shown, zoomed or not', () => {
    const area = plotArea(width, height);
    // 200 px less the top margin (8), the x axis (24), the brush (22) and the bottom margin (4)
    expect(area).toEqual({ left: 52, top: 8, width: 880, height: 142 });
    const whole = { start: 0, end: 999 };
    const zoomed = { start: 600, end: 999 };
    const y = area.top + area.height / 2;
    expect(turnAtPoint(area.left, y, whole, width, height)).toBe(0);
    expect(turnAtPoint(area.left + area.width, y, whole, width, height)).toBe(999);
    // a quarter in: turn 600 + 0.25 × 399 ≈ 700 when zoomed (the range's start was chosen before the fix)
    expect(turnAtPoint(area.left + area.width * 0.25, y, zoomed, width, height)).toBe(700);
    expect(turnAtPoint(area.left + area.width * 0.25, y, whole, width, height)).toBe(250);
  });

  it('is the inverse of where the cursor is drawn', () => {
    const range = { start: 120, end: 480 };
    for (const turn of [120, 121, 300, 479, 480]) {
      expect(turnAtPoint(xOfTurn(turn, range, width), 50, range, width, height)).toBe(turn);
    }
  });

  it('selects nothing outside the plot area (axes, brush, margins)', () => {
    const range = { start: 0, end: 10 };
    expect(turnAtPoint(20, 50, range, width, height)).toBeNull(); // over the y axis
    expect(turnAtPoint(940, 50, range, width, height)).toBeNull(); // right margin
    expect(turnAtPoint(400, 4, range, width, height)).toBeNull(); // top margin
    expect(turnAtPoint(400, 190, range, width, height)).toBeNull(); // the brush
  });

  it('keeps a one-turn range (the first turn of a streaming replay) at that turn', () => {
    expect(turnAtPoint(500, 50, { start: 0, end: 0 }, width, height)).toBe(0);
  });

  it('puts a strip for each kind of marker above the plot, and a click on the strip selects the turn under it', () => {
    expect(markerRows({ compaction: 4, quarantine: 0, spawn: 1 })).toEqual(['compaction', 'spawn']);
    const area = plotArea(width, height, 2);
    // two rows of 12 px and 1 px of air between the top margin and the plot
    expect(area).toEqual({ left: 52, top: 33, width: 880, height: 117 });
    const range = { start: 0, end: 100 };
    expect(turnAtPoint(area.left + area.width / 2, 12, range, width, height, 2)).toBe(50);
    expect(turnAtPoint(area.left + area.width / 2, 4, range, width, height, 2)).toBeNull();
  });

  it('never makes the plot shorter than its least height, however short the pane asks for', () => {
    for (const rows of [0, 1, 3]) {
      const tall = chartHeightAtLeast(40, rows);
      expect(plotArea(width, tall, rows).height).toBe(MIN_PLOT_HEIGHT);
      expect(chartHeightAtLeast(400, rows)).toBe(400);
    }
  });

  it('joins a marker group drawn over the one before it of its kind, keeping every turn counted once', () => {
    const group = (kind: 'compaction' | 'spawn', firstTurn: number, lastTurn: number, turns: number) => ({
      kind,
      firstTurn,
      lastTurn,
      turns,
      turn: (firstTurn + lastTurn) / 2,
    });
    // 1 px per turn: a group of 12 turns ends 7 + 14 px to the right of its centre
    const range = { start: 0, end: 1000 };
    const groups = [
      group('compaction', 90, 110, 12),
      group('compaction', 112, 112, 1),
      group('compaction', 200, 200, 1),
      group('spawn', 101, 101, 1),
    ];
    const spread = spreadMarkGroups(groups, range, 1000);
    expect(spread).toEqual([
      group('compaction', 90, 112, 13),
      group('spawn', 101, 101, 1),
      group('compaction', 200, 200, 1),
    ]);
    // zoomed in, the same groups are far enough apart to stay as they are
    expect(spreadMarkGroups(groups, { start: 80, end: 220 }, 1000)).toHaveLength(4);
  });

  it('zooms around the point under the pointer: the turn there stays there, within the turns, never below the least span', () => {
    const whole = { start: 0, end: 999 };
    // a quarter in: turn ~250 stays a quarter in
    const zoomedIn = zoomRange(whole, 0.25, 0.5, 999);
    expect(zoomedIn.end - zoomedIn.start).toBe(500);
    expect(Math.abs(zoomedIn.start + 0.25 * 500 - 249.75)).toBeLessThanOrEqual(0.5);
    // at the left edge the start stays 0; out again past everything gives everything
    expect(zoomRange(whole, 0, 0.5, 999).start).toBe(0);
    expect(zoomRange(zoomedIn, 0.25, 10, 999)).toEqual(whole);
    // a slow wheel still narrows by a turn; never below MIN_ZOOM_TURNS turns, nor outside them
    expect(
      zoomRange({ start: 10, end: 30 }, 0.5, 0.99, 999).end - zoomRange({ start: 10, end: 30 }, 0.5, 0.99, 999).start,
    ).toBe(19);
    expect(zoomRange({ start: 10, end: 14 }, 0.5, 0.1, 999)).toEqual({ start: 10, end: 10 + MIN_ZOOM_TURNS - 1 });
    expect(zoomRange({ start: 990, end: 999 }, 1, 0.5, 999).end).toBe(999);
    expect(panRange({ start: 990, end: 999 }, 50, 999)).toEqual({ start: 990, end: 999 });
    expect(panRange({ start: 10, end: 19 }, -4, 999)).toEqual({ start: 6, end: 15 });
  });

  it('scales the y axis to the figures of the turns shown, and reaches the window only when asked', () => {
    const recording = makeRecording();
    const event = recording.turns.legacy![2]!.events[0]!;
    if (event.type !== 'compaction') throw new Error('the fixture compacts on turn 3');
    event.cause = { measure: 'precheck', attempt: 0, tokens: 13_000, limit: 12_000, source: 'assembled' };
    const series = buildBudgetSeries(recording, lanesOfSession(recording, 'sess-1'), 'precheck');
    // every precheck estimate is 100; the compaction on turn 3 was decided on 13,000 (window 32,000)
    expect(yAxisTop(series, { start: 0, end: 1 }, false)).toBe(120);
    expect(yAxisTop(series, { start: 0, end: 2 }, false)).toBe(15_000);
    expect(yAxisTop(series, { start: 0, end: 1 }, true)).toBe(40_000);
  });
});

import { describe, expect, it } from 'vitest';
import { plotArea, turnAtPoint, xOfTurn } from '../../renderer/src/components/budgetChartGeometry';

describe('budget chart geometry', () => {
  const width = 948; // plot area 52 .. 932 (880 px)
  const height = 200;

  it('maps a click inside the plot to the nearest turn of the range shown, zoomed or not', () => {
    const area = plotArea(width, height);
    expect(area).toEqual({ left: 52, top: 8, width: 880, height: 136 });
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
});

import { describe, expect, it } from 'vitest';
import {
  advancePace,
  RATE_MIN_MS,
  RATE_MIN_TURNS,
  RATE_WINDOW_MS,
  replayRate,
  replayRateText,
} from '../../../src/view';

describe('a running replay’s pace and time left', () => {
  const first = { done: 2, elapsedMs: 20_000 };

  it('has no rate until enough turns have been measured past the first sample', () => {
    expect(replayRate(undefined, { done: 400, elapsedMs: 30_000 }, 4000)).toBeNull();
    expect(replayRate(first, { done: first.done + RATE_MIN_TURNS - 1, elapsedMs: 25_000 }, 4000)).toBeNull();
    // a burst of turns answered at once is no pace either
    expect(replayRate(first, { done: 400, elapsedMs: first.elapsedMs + RATE_MIN_MS - 1 }, 4000)).toBeNull();
    expect(replayRateText(first, { done: first.done + RATE_MIN_TURNS - 1, elapsedMs: 25_000 }, 4000)).toBeNull();
  });

  it('measures from the first sample, so the set-up before the first turn does not slow the estimate', () => {
    // 20 s of set-up, then 400 lane-turns in 4 s: 100 a second, 3,598 left → 36 s (from the start it read 215 s)
    const rate = replayRate(first, { done: 402, elapsedMs: 24_000 }, 4000)!;
    expect(rate.perSecond).toBe(100);
    expect(rate.leftSeconds).toBeCloseTo(35.98, 2);
    expect(replayRateText(first, { done: 402, elapsedMs: 24_000 }, 4000)).toBe('100 turns/s · about 36 s left');
    expect(replayRateText(first, { done: 32, elapsedMs: 26_000 }, 4000)).toBe('5.0 turns/s · about 14 min left');
  });

  it('follows the recent pace: slow first turns stop counting once the window has moved past them', () => {
    let pace = advancePace(undefined, { done: 2, elapsedMs: 0 });
    // 10 lane-turns a second at first, then 100
    for (let t = 1; t <= 30; t++) {
      const s = t * 1000;
      pace = advancePace(pace, { done: t <= 10 ? 2 + t * 10 : 102 + (t - 10) * 100, elapsedMs: s });
    }
    expect(pace.last.elapsedMs - pace.first.elapsedMs).toBeLessThanOrEqual(2 * RATE_WINDOW_MS);
    expect(replayRate(pace.first, pace.last, 10_000)!.perSecond).toBe(100);
  });
});

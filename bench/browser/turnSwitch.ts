import type { Page } from 'playwright-core';

const press = (key: string, code: string) =>
  `window.dispatchEvent(new KeyboardEvent('keydown', { key: '${key}', code: '${code}', bubbles: true }))`;

/**
 * Presses `j` `count` times in the page (after `warmup` presses), each time measuring from the key event until the
 * frame after it has been painted (requestAnimationFrame, then a task), as a user would see it. Returns ms per switch.
 * `from`: the first turn, or `late` — the last turn and back (End, then k), so the switches walk the session's end,
 * where each turn's context is longest.
 */
export async function timeTurnSwitches(
  page: Page,
  count: number,
  warmup = 5,
  from: 'first' | 'late' = 'first',
): Promise<number[]> {
  await goToFirstSwitch(page, count, warmup, from);
  return pressNext(page, count, warmup);
}

/** Selects the turn the switches start from (see timeTurnSwitches). */
export async function goToFirstSwitch(page: Page, count: number, warmup: number, from: 'first' | 'late') {
  await page.getByTestId('timeline-row').first().click();
  if (from === 'late') {
    await page.evaluate(press('End', 'End'));
    for (let i = 0; i < warmup + count + 1; i++) await page.evaluate(press('k', 'KeyK'));
    await page.waitForTimeout(500);
  }
}

/**
 * Presses `j` warmup + count times, timing the last `count`. Each timed switch lies between the user-timing marks
 * `cs-switch-start` and `cs-switch-end` (traceSummary.ts reads them); a render counter the page has
 * (renderCounter.ts) is reset when the timed switches start.
 */
export function pressNext(page: Page, count: number, warmup: number): Promise<number[]> {
  // a string, not a function: tsx would wrap named functions in a helper the page does not have
  return page.evaluate(`(async () => {
    const times = [];
    for (let i = 0; i < ${warmup + count}; i++) {
      if (i === ${warmup}) window.__csResetRenders?.();
      performance.mark('cs-switch-start');
      const start = performance.now();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', code: 'KeyJ', bubbles: true }));
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
      if (i >= ${warmup}) times.push(performance.now() - start);
      performance.mark(i >= ${warmup} ? 'cs-switch-end' : 'cs-warmup-end');
    }
    return times;
  })()`) as Promise<number[]>;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The budget chart's layout as drawn (px, from the page): its plot area, the axis tick labels, the band labels and
 * the markers, and the two workspace panes. `readabilityProblems` names what a reader could not read: a plot too
 * short, labels drawn over each other or under a marker, a band label outside the plot.
 */
import type { Page } from 'playwright-core';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  text?: string;
}

export interface ChartLayout {
  /** the plot area (inside the axes; the markers' strip is above it) */
  plot: Box;
  yTicks: Box[];
  xTicks: Box[];
  bandLabels: Box[];
  markers: (Box & { kind: string })[];
  master: Box & { scrollHeight: number; clientHeight: number };
  detail: Box;
}

export async function chartLayout(page: Page): Promise<ChartLayout> {
  return page.evaluate(() => {
    const box = (el: Element, text = false) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height, ...(text ? { text: el.textContent ?? '' } : {}) };
    };
    // (an axis' tick labels sit in a layer of their own, named after the axis)
    const all = (selector: string, text = false) =>
      [...document.querySelectorAll(`.budget-chart ${selector}`)].map((el) => box(el, text));
    // recharts clips the plot to its plot area: the clip rectangle is that area, in the svg's coordinates
    const svg = document.querySelector('.budget-chart svg.recharts-surface');
    const clip = svg?.querySelector('defs clipPath rect');
    const at = svg?.getBoundingClientRect();
    const attr = (name: string) => Number(clip?.getAttribute(name) ?? 0);
    const master = document.querySelector('[data-testid="pane-master"]')!;
    return {
      plot: { x: (at?.x ?? 0) + attr('x'), y: (at?.y ?? 0) + attr('y'), width: attr('width'), height: attr('height') },
      yTicks: all('[class*="recharts-yAxis"] .recharts-cartesian-axis-tick-value', true),
      xTicks: all('[class*="recharts-xAxis"] .recharts-cartesian-axis-tick-value', true),
      bandLabels: all('.budget-chart__band-label', true),
      markers: [...document.querySelectorAll('.budget-chart [data-marker]')].map((el) => ({
        ...box(el, true),
        kind: el.getAttribute('data-marker') ?? '',
      })),
      master: { ...box(master), scrollHeight: master.scrollHeight, clientHeight: master.clientHeight },
      detail: box(document.querySelector('[data-testid="pane-detail"]')!),
    };
  });
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function overlapsWithin(boxes: Box[], what: string): string[] {
  const problems: string[] = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      if (overlap(boxes[i]!, boxes[j]!)) problems.push(`${what} "${boxes[i]!.text}" overlaps "${boxes[j]!.text}"`);
    }
  }
  return problems;
}

function inside(inner: Box, outer: Box): boolean {
  const slack = 1;
  return (
    inner.x >= outer.x - slack &&
    inner.y >= outer.y - slack &&
    inner.x + inner.width <= outer.x + outer.width + slack &&
    inner.y + inner.height <= outer.y + outer.height + slack
  );
}

/** Everything that keeps the chart from being read at `minPlotHeight` px or more (empty when it reads). */
export function readabilityProblems(layout: ChartLayout, minPlotHeight: number): string[] {
  const problems: string[] = [];
  if (layout.plot.height < minPlotHeight) problems.push(`the plot is ${layout.plot.height} px tall`);
  if (layout.yTicks.length < 3) problems.push(`the y axis has ${layout.yTicks.length} labels`);
  problems.push(...overlapsWithin(layout.yTicks, 'y label'), ...overlapsWithin(layout.xTicks, 'x label'));
  problems.push(...overlapsWithin(layout.bandLabels, 'band label'));
  for (const label of layout.bandLabels) {
    if (!inside(label, layout.plot)) problems.push(`band label "${label.text}" is outside the plot`);
    const hit = layout.markers.find((marker) => overlap(marker, label));
    if (hit) problems.push(`band label "${label.text}" is under a ${hit.kind} marker`);
  }
  // markers (with the count of turns beside a grouped one) never cover one another
  layout.markers.forEach((marker, i) => {
    const other = layout.markers.find((m, j) => j > i && overlap(m, marker));
    if (other) problems.push(`a ${marker.kind} marker overlaps a ${other.kind} marker`);
  });
  return problems;
}

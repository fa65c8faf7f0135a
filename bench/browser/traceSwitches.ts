/**
 * Where a turn switch's time goes (a diagnostic beside bench/ui.bench.ts, not a benchmark): opens a recording in the
 * built app (headless Chromium, browser mode), presses `j` as the bench does and prints
 * - from a Chrome trace: the renderer main thread's time per switch by kind of work and by trace event, the slowest
 *   switches, and the layouts script forced (with the frame that read layout);
 * - from a CPU profile: the functions with the most self time per switch;
 * - which React components rendered per switch (renderCounter.ts; names need an unminified renderer).
 *   node --import tsx bench/browser/traceSwitches.ts --recording rec1000.json [--switches 40] [--from first|late]
 *     [--trace-out trace.json] [--light: fewer trace categories (no stacks), cheaper to trace] [--css 'CSS'] [--categories more,trace,categories]
 * CONTEXTSCOPE_RENDERER_DIR serves another renderer build (e.g. an unminified one) than out/renderer.
 */
import { writeFileSync, readFileSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { chromiumPath, openBenchApp, openKeptRecording } from './app';
import { RENDER_COUNTER_SCRIPT } from './renderCounter';
import { cpuByThread, summarizeSwitches, type SwitchTrace, type TraceEvent, type WorkKind } from './traceSummary';
import { goToFirstSwitch, median, percentile, pressNext } from './turnSwitch';

/** enough for the time by kind of work and by thread; the rest (stacks, V8) make tracing itself costlier */
const LIGHT_CATEGORIES = ['devtools.timeline', 'blink.user_timing'];
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.stack',
  'blink.user_timing',
  'v8',
  'blink.gc',
];

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function readTrace(cdp: CDPSession): Promise<TraceEvent[]> {
  const complete = new Promise<string>((resolve) =>
    cdp.once('Tracing.tracingComplete', (event) => resolve(event.stream!)),
  );
  await cdp.send('Tracing.end');
  const stream = await complete;
  let text = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream, size: 1 << 20 });
    text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
    if (chunk.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return Array.isArray(parsed) ? parsed : parsed.traceEvents;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

function printTrace(switches: SwitchTrace[]): void {
  const n = switches.length;
  const walls = switches.map((s) => s.wallMs);
  console.log(`trace: ${n} switches, wall p50 ${ms(median(walls))}, p95 ${ms(percentile(walls, 95))}`);
  const kinds: WorkKind[] = ['scripting', 'gc', 'style', 'layout', 'paint', 'other'];
  const mean = (pick: (s: SwitchTrace) => number) => switches.reduce((sum, s) => sum + pick(s), 0) / n;
  const busy = (s: SwitchTrace, by: 'byKind' | 'cpuByKind') => kinds.reduce((sum, k) => sum + s[by][k], 0);
  for (const by of ['byKind', 'cpuByKind'] as const) {
    const what = by === 'byKind' ? 'main thread per switch (mean)' : 'its CPU time (mean)';
    const parts = kinds.map((k) => `${k} ${ms(mean((s) => s[by][k]))}`).join(', ');
    const total = switches.map((s) => busy(s, by));
    console.log(`  ${what}: ${parts}; total p50 ${ms(median(total))}, p95 ${ms(percentile(total, 95))}`);
  }
  const names = new Map<string, number>();
  for (const s of switches) for (const [name, value] of s.byName) names.set(name, (names.get(name) ?? 0) + value);
  const top = [...names].sort((a, b) => b[1] - a[1]).slice(0, 14);
  console.log(`  by event (mean self time): ${top.map(([name, value]) => `${name} ${ms(value / n)}`).join(', ')}`);
  const forced = new Map<string, { count: number; ms: number }>();
  for (const s of switches)
    for (const f of s.forced) {
      const entry = forced.get(`${f.name} ← ${f.at}`) ?? { count: 0, ms: 0 };
      forced.set(`${f.name} ← ${f.at}`, { count: entry.count + 1, ms: entry.ms + f.ms });
    }
  console.log(`  forced by script (over all switches):${forced.size === 0 ? ' none' : ''}`);
  for (const [at, { count, ms: total }] of [...forced].sort((a, b) => b[1].ms - a[1].ms).slice(0, 10))
    console.log(`    ${count}× ${ms(total)}  ${at}`);
  console.log('  slowest switches:');
  for (const s of [...switches].sort((a, b) => b.wallMs - a.wallMs).slice(0, 5)) {
    const parts = kinds.filter((k) => s.byKind[k] >= 0.5).map((k) => `${k} ${ms(s.byKind[k])}`);
    console.log(
      `    ${ms(s.wallMs)} (main thread busy ${ms(busy(s, 'byKind'))}, CPU ${ms(busy(s, 'cpuByKind'))}): ${parts.join(', ')}`,
    );
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const frameKey = (frame: ProfileNode['callFrame']) =>
  `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;

/** Self and inclusive time per function (a function counted once per sample however deep it recurses). */
function profileTimes(profile: Profile): { self: Map<string, number>; total: Map<string, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const key = frameKey(byId.get(id)!.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      seen.add(frameKey(byId.get(at)!.callFrame));
    for (const name of seen) total.set(name, (total.get(name) ?? 0) + dt);
  });
  return { self, total };
}

function printProfile(profile: Profile, n: number): void {
  const { self, total } = profileTimes(profile);
  const top = (times: Map<string, number>, count: number) =>
    [...times]
      .filter(([key]) => !/^\((idle|root|program)\)/.test(key))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count);
  console.log('cpu profile, per switch (mean): self time');
  for (const [key, value] of top(self, 15)) console.log(`  ${ms(value / n).padStart(8)}  ${key}`);
  console.log('  inclusive time');
  for (const [key, value] of top(total, 45)) console.log(`  ${ms(value / n).padStart(8)}  ${key}`);
}

async function main(): Promise<void> {
  const chromium = chromiumPath();
  const recordingPath = option('recording');
  if (!chromium || !recordingPath) throw new Error('needs Chromium (CHROMIUM_PATH) and --recording FILE');
  const count = Number(option('switches') ?? 40);
  const from = option('from') === 'late' ? 'late' : 'first';
  const app = await openBenchApp(chromium, readFileSync(recordingPath, 'utf8'), undefined, RENDER_COUNTER_SCRIPT);
  try {
    await openKeptRecording(app.page);
    const cdp = await app.page.context().newCDPSession(app.page);
    // --css: a style sheet laid over the app's (an experiment: what does hiding or containing a part save?)
    // (a constructed sheet: the app's CSP refuses inline styles)
    if (option('css'))
      await app.page.evaluate(`(() => {
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(${JSON.stringify(option('css'))});
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
      })()`);
    await goToFirstSwitch(app.page, count, 5, from);
    const extra = option('categories')?.split(',') ?? [];
    const categories = [...(process.argv.includes('--light') ? LIGHT_CATEGORIES : CATEGORIES), ...extra];
    await cdp.send('Tracing.start', { categories: categories.join(','), transferMode: 'ReturnAsStream' });
    await pressNext(app.page, count, 5);
    const events = await readTrace(cdp);
    if (option('trace-out')) writeFileSync(option('trace-out')!, JSON.stringify({ traceEvents: events }));
    printTrace(summarizeSwitches(events));
    const threads = cpuByThread(events).filter((t) => t.cpuMs >= 0.1);
    const total = threads.reduce((sum, t) => sum + t.cpuMs, 0);
    console.log(
      `  CPU per switch, all threads: ${ms(total)} (${threads.map((t) => `${t.thread} ${ms(t.cpuMs)}`).join(', ')})`,
    );
    const renders = (await app.page.evaluate('window.__csRenders')) as Record<string, number>;
    const list = Object.entries(renders).sort((a, b) => b[1] - a[1]);
    console.log(`renders per switch: ${list.map(([name, c]) => `${name} ${(c / count).toFixed(1)}`).join(', ')}`);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    await pressNext(app.page, Math.min(count, 30), 0);
    const { profile } = await cdp.send('Profiler.stop');
    printProfile(profile as Profile, Math.min(count, 30));
  } finally {
    await app.close();
  }
}

await main();

/**
 * Reads a Chrome trace (Tracing domain, devtools.timeline categories) of turn switches that turnSwitch.ts marked
 * with `cs-switch-start` / `cs-switch-end`: the renderer main thread's time in each switch, by kind of work
 * (scripting, garbage collection, style, layout, paint, other) and by trace event, and the layouts and style
 * recalculations that script forced (with the script's frame that asked for them).
 */

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** the thread's CPU time in the event (what load on the machine does not stretch) */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; beginData?: { stackTrace?: StackFrame[] }; data?: { stackTrace?: StackFrame[] } };
}

interface StackFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

export type WorkKind = 'scripting' | 'gc' | 'style' | 'layout' | 'paint' | 'other';

const SCRIPTING = new Set([
  'FunctionCall',
  'EvaluateScript',
  'v8.callFunction',
  'v8.compile',
  'v8.run',
  'V8.Execute',
  'RunMicrotasks',
  'TimerFire',
  'FireAnimationFrame',
  'EventDispatch',
  'FireIdleCallback',
  'v8.evaluateModule',
]);
const STYLE = new Set(['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet']);
const PAINT = new Set(['Paint', 'PaintImage', 'PrePaint', 'Layerize', 'UpdateLayer', 'CompositeLayers', 'Commit']);

export function kindOf(name: string): WorkKind {
  if (/GC|Scavenge|MarkCompact|BlinkGC|Sweep/i.test(name)) return 'gc';
  if (SCRIPTING.has(name) || name.startsWith('V8.')) return 'scripting';
  if (STYLE.has(name)) return 'style';
  if (name === 'Layout') return 'layout';
  if (PAINT.has(name)) return 'paint';
  return 'other';
}

export interface ForcedLayout {
  name: string;
  ms: number;
  /** the script frame that read layout (function url:line), when the trace has stacks */
  at: string;
}

export interface SwitchTrace {
  /** the switch's wall time, start mark to end mark, ms */
  wallMs: number;
  /** main-thread self time by kind, ms */
  byKind: Record<WorkKind, number>;
  /** main-thread self CPU time by kind, ms (thread time: not stretched while the thread waits for a core) */
  cpuByKind: Record<WorkKind, number>;
  /** main-thread self time by trace event name, ms */
  byName: Map<string, number>;
  forced: ForcedLayout[];
}

function mainThread(events: readonly TraceEvent[]): { pid: number; tid: number } {
  const mark = events.find((e) => e.name === 'cs-switch-start');
  if (!mark) throw new Error('the trace has no cs-switch-start mark (was blink.user_timing traced?)');
  const main = events.find(
    (e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === mark.pid,
  );
  if (!main) throw new Error(`no CrRendererMain thread in process ${mark.pid}`);
  return { pid: main.pid, tid: main.tid };
}

/** Complete events on one thread (B/E pairs joined), sorted so that a parent comes before what it contains. */
function threadSlices(events: readonly TraceEvent[], pid: number, tid: number): TraceEvent[] {
  const slices: TraceEvent[] = [];
  const open: TraceEvent[] = [];
  for (const event of events) {
    if (event.pid !== pid || event.tid !== tid) continue;
    if (event.ph === 'X' && event.dur !== undefined) slices.push(event);
    else if (event.ph === 'B') open.push(event);
    else if (event.ph === 'E') {
      const begin = open.pop();
      if (begin) slices.push({ ...begin, ph: 'X', dur: event.ts - begin.ts });
    }
  }
  return slices.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
}

function frameText(event: TraceEvent): string {
  const frame = (event.args?.beginData?.stackTrace ?? event.args?.data?.stackTrace)?.[0];
  if (!frame) return '(no stack)';
  const file = frame.url.split('/').pop() ?? frame.url;
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
}

function emptySwitch(wallMs: number): SwitchTrace {
  const byKind = { scripting: 0, gc: 0, style: 0, layout: 0, paint: 0, other: 0 };
  return { wallMs, byKind, cpuByKind: { ...byKind }, byName: new Map(), forced: [] };
}

/** Per switch (between each start mark and the end mark after it): where the main thread's time went. */
export function summarizeSwitches(events: readonly TraceEvent[]): SwitchTrace[] {
  const { pid, tid } = mainThread(events);
  const marks = events.filter((e) => e.name.startsWith('cs-') && e.pid === pid).sort((a, b) => a.ts - b.ts);
  const windows: { start: number; end: number; trace: SwitchTrace }[] = [];
  for (let i = 0; i + 1 < marks.length; i++) {
    if (marks[i]!.name !== 'cs-switch-start' || marks[i + 1]!.name !== 'cs-switch-end') continue;
    const [start, end] = [marks[i]!.ts, marks[i + 1]!.ts];
    windows.push({ start, end, trace: emptySwitch((end - start) / 1000) });
  }
  const stack: { event: TraceEvent; end: number; childMs: number; childCpu: number }[] = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= until) {
      const { event, childMs, childCpu } = stack.pop()!;
      const self = event.dur! / 1000 - childMs;
      const selfCpu = (event.tdur ?? event.dur!) / 1000 - childCpu;
      const window = windows.find((w) => event.ts >= w.start && event.ts < w.end);
      if (!window) continue;
      const kind = kindOf(event.name);
      window.trace.byKind[kind] += self;
      window.trace.cpuByKind[kind] += Math.max(0, selfCpu);
      window.trace.byName.set(event.name, (window.trace.byName.get(event.name) ?? 0) + self);
      const underScript = stack.some((s) => kindOf(s.event.name) === 'scripting');
      if ((kind === 'layout' || kind === 'style') && underScript) {
        window.trace.forced.push({ name: event.name, ms: event.dur! / 1000, at: frameText(event) });
      }
    }
  };
  for (const event of threadSlices(events, pid, tid)) {
    close(event.ts);
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.childMs += event.dur! / 1000;
      parent.childCpu += (event.tdur ?? event.dur!) / 1000;
    }
    stack.push({ event, end: event.ts + event.dur!, childMs: 0, childCpu: 0 });
  }
  close(Infinity);
  return windows.map((w) => w.trace);
}

export interface ThreadCpu {
  thread: string;
  /** CPU time per switch, ms (top-level events, thread time) */
  cpuMs: number;
}

/**
 * CPU time per switch on every thread of the trace (main thread, compositor, raster workers, the GPU process's
 * compositor, …), from the first timed switch's start to the last one's end: on a machine with few cores what
 * the other threads do competes with the main thread too.
 */
export function cpuByThread(events: readonly TraceEvent[]): ThreadCpu[] {
  const names = new Map<string, string>();
  const processes = new Map<number, string>();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
    if (e.ph === 'M' && e.name === 'process_name') processes.set(e.pid, e.args?.name ?? '?');
  }
  const starts = events.filter((e) => e.name === 'cs-switch-start').map((e) => e.ts);
  const ends = events.filter((e) => e.name === 'cs-switch-end').map((e) => e.ts);
  if (ends.length === 0) return [];
  const [from, to] = [Math.min(...starts), Math.max(...ends)];
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined || e.ts < from || e.ts > to) continue;
    const key = `${e.pid}:${e.tid}`;
    byThread.set(key, [...(byThread.get(key) ?? []), e]);
  }
  const result: ThreadCpu[] = [];
  for (const [key, slices] of byThread) {
    slices.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    let end = -Infinity;
    let cpu = 0;
    for (const slice of slices) {
      if (slice.ts < end) continue;
      cpu += slice.tdur ?? slice.dur!;
      end = slice.ts + slice.dur!;
    }
    const process = processes.get(Number(key.split(':')[0])) ?? '?';
    result.push({ thread: `${process} ${names.get(key) ?? key}`, cpuMs: cpu / 1000 / ends.length });
  }
  return result.sort((a, b) => b.cpuMs - a.cpuMs);
}

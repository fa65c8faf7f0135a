/**
 * Issue 17 item 10: two replays of the same session are the same recording byte for byte, apart from when it was
 * made and how long things took. Legacy and a bundled plugin lane (summary-tree, which owns compaction, beside
 * recent-window, which delegates it), both at a window that compacts, run concurrently, so nothing timing-dependent
 * (event numbering, message order, entry ids, quarantine times) may reach the file.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDemoSessionsDir, exportRecordingJson, replaySession, type Recording } from '../../../../src/replay';

const DEMO = join(defaultDemoSessionsDir()!, 'agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');

/** The fields that say when the recording was made and how long things took: the only ones allowed to differ. */
const TIMING_FIELDS = ['createdAt', 'wallMs', 'startedAtMs', 'durationMs'];

function withoutTiming(json: string): string {
  return JSON.stringify(JSON.parse(json), (key, value: unknown) => (TIMING_FIELDS.includes(key) ? 0 : value));
}

/** Where two texts first differ, with some context (undefined when they are the same). */
function firstDifference(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  let at = 0;
  while (a[at] === b[at]) at++;
  return `at ${at}: …${a.slice(Math.max(0, at - 120), at + 80)}… vs …${b.slice(Math.max(0, at - 120), at + 80)}…`;
}

function replay(): Promise<Recording> {
  return replaySession({
    session: DEMO,
    lanes: [
      { engine: { kind: 'legacy' }, contextWindow: 16_000 },
      { engine: { kind: 'plugin', plugin: resolve('resources/plugins/summary-tree') }, contextWindow: 16_000 },
      { engine: { kind: 'plugin', plugin: resolve('resources/plugins/recent-window') }, contextWindow: 16_000 },
      // quarantined at its first assemble: a quarantine's failedAt is in the file
      {
        engine: {
          kind: 'plugin',
          plugin: resolve('resources/plugins/faulty-engines'),
          engineId: 'faulty-assemble-throws',
        },
        contextWindow: 16_000,
      },
    ],
    plugins: { allowExecute: true },
  });
}

describe('two identical replays', () => {
  it('give byte-identical recordings apart from createdAt and the timing fields', async () => {
    const first = await replay();
    const second = await replay();
    // the case is one that could differ: lane compactions (lane-made entry ids), a quarantine, concurrent lanes
    const events = Object.values(first.turns).flatMap((turns) => turns.flatMap((t) => t.events));
    expect(events.filter((e) => e.type === 'compaction' && e.compacted).length).toBeGreaterThan(3);
    expect([...events, ...first.events].some((e) => e.type === 'quarantine')).toBe(true);
    expect(Object.values(first.messages).some((m) => m.role === 'compactionSummary')).toBe(true);

    const a = exportRecordingJson(first);
    const b = exportRecordingJson(second);
    expect(a).not.toBe(b); // the timing fields do differ …
    expect(firstDifference(withoutTiming(a), withoutTiming(b))).toBeUndefined(); // … and nothing else
  }, 120_000);
});

/**
 * Bounded engine hosts (issue 17 item 2), with real engine-host processes and small caps: a result past the message
 * cap is dropped unread and quarantines that lane with the operation and a readable reason, the other lanes are as
 * without it, and neither a process nor a temporary folder is left; a host that reaches its heap cap is reported as
 * out of memory. The line channel's reader is checked on its own first.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrameReader, formatMegabytes } from '../../../src/plugins/host/frameChannel';
import { laneConfigFromSpec, parseLaneSpec, replaySession, type Recording } from '../../../src/replay';
import { pluginsFromCli } from '../../../src/cli/commands/replay';
import { batchRequestFromCli } from '../../../src/cli/commands/replayAll';
import { SessionBuilder } from '../replay/sessionBuilder';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/plugins');
const MB = 1 << 20;

describe('the line channel reader', () => {
  const read = (maxBytes: number, chunks: string[]) => {
    const frames: string[] = [];
    const dropped: number[] = [];
    const reader = new FrameReader(
      maxBytes,
      (text) => frames.push(text),
      (bytes) => dropped.push(bytes),
    );
    for (const chunk of chunks) reader.push(Buffer.from(chunk));
    return { frames, dropped };
  };

  it('joins messages split across chunks and splits chunks holding several', () => {
    expect(read(100, ['{"a":', '1}\n{"b":2}\n{"c"', ':"é"}\n'])).toEqual({
      frames: ['{"a":1}', '{"b":2}', '{"c":"é"}'],
      dropped: [],
    });
  });

  it('drops a message past the cap, reports its whole size, and reads the next one', () => {
    expect(read(10, ['{"x":"', 'a'.repeat(30), '"}\n{"ok":1}\n'])).toEqual({ frames: ['{"ok":1}'], dropped: [38] });
    expect(read(8, ['{"ok":1}\n'])).toEqual({ frames: ['{"ok":1}'], dropped: [] });
  });

  it('names sizes in MB as the quarantine reason does', () => {
    expect(formatMegabytes(52.4 * MB)).toBe('52.4 MB');
    expect(formatMegabytes(64 * MB)).toBe('64 MB');
    expect(formatMegabytes(0.5 * MB)).toBe('0.5 MB');
  });
});

describe('caps of plugin lanes: options', () => {
  it('takes maxResultMb= in a plugin lane spec and --max-result-mb on the command line', () => {
    expect(parseLaneSpec('plugin:x?maxResultMb=0.5')).toMatchObject({ maxResultBytes: 0.5 * MB });
    expect(laneConfigFromSpec('plugin:x?maxResultMb=8', { contextWindow: 1 }).engine).toMatchObject({
      maxResultBytes: 8 * MB,
    });
    expect(() => parseLaneSpec('plugin:x?maxResultMb=lots')).toThrow(
      'Invalid maxResultMb in lane spec "plugin:x?maxResultMb=lots" "lots": give a positive number of megabytes',
    );
    const cli = { lane: ['legacy'], window: '32000', subagents: true, progress: false };
    expect(pluginsFromCli({ ...cli, maxResultMb: '16' })).toMatchObject({ maxResultBytes: 16 * MB });
    expect(() => pluginsFromCli({ ...cli, maxResultMb: '0' })).toThrow('Invalid --max-result-mb "0"');
    // replay --all passes it to every session's replay
    expect(batchRequestFromCli({ ...cli, stateDir: tmpdir(), maxResultMb: '2' }).plugins).toMatchObject({
      maxResultBytes: 2 * MB,
    });
  });
});

/** Child processes of this process (Linux /proc; empty elsewhere). */
function childPids(): string[] {
  try {
    return readdirSync('/proc').filter((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === process.pid;
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}

const session = () => new SessionBuilder().turn('first').turn('second').turn('third').loaded();
const legacy = { engine: { kind: 'legacy' as const }, contextWindow: 32_000 };
const quarantines = (rec: Recording, laneId: string) =>
  (rec.turns[laneId] ?? []).flatMap((t) => t.events).filter((e) => e.type === 'quarantine');
const timeless = (rec: Recording) =>
  rec.turns.legacy!.map((t) => ({ ...t, calls: t.calls.map((c) => ({ ...c, startedAtMs: 0, durationMs: 0 })) }));

describe('caps of plugin lanes: real engine hosts', () => {
  // the replay's work folder and the lanes' folders go under TMPDIR: a fresh one shows what is left behind
  const ownTmp = mkdtempSync(join(tmpdir(), 'cs-host-limits-'));
  const savedTmp = process.env.TMPDIR;
  beforeAll(() => {
    process.env.TMPDIR = ownTmp;
  });
  afterAll(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(ownTmp, { recursive: true, force: true });
  });

  it('quarantines a lane whose result is past the cap, leaves the others as without it, and leaves nothing behind', async () => {
    const before = childPids();
    const spec = `plugin:${join(FIXTURES, 'oversized-result')}?maxResultMb=1`;
    const both = await replaySession({
      session: session(),
      lanes: [legacy, laneConfigFromSpec(spec, { contextWindow: 32_000 })],
      plugins: { allowExecute: true },
    });
    const alone = await replaySession({ session: session(), lanes: [legacy], plugins: { allowExecute: true } });

    const plugin = both.lanes[1]!.id;
    expect(quarantines(both, plugin)).toMatchObject([
      { operation: 'assemble', reason: 'assemble result of 2 MB is over the 1 MB cap' },
    ]);
    // the turns after it run on legacy, and nothing of the 2 MB message reached the recording
    expect(both.turns[plugin]!.map((t) => t.engine.engineId)).toEqual(['oversized-result', 'legacy', 'legacy']);
    expect(JSON.stringify(both).length).toBeLessThan(MB);
    expect(timeless(both)).toEqual(timeless(alone));
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
    expect(readdirSync(ownTmp)).toEqual([]);
  }, 60_000);

  it('takes the same result under a cap it fits in', async () => {
    const spec = `plugin:${join(FIXTURES, 'oversized-result')}?maxResultMb=4`;
    const rec = await replaySession({
      session: session(),
      lanes: [laneConfigFromSpec(spec, { contextWindow: 32_000 })],
      plugins: { allowExecute: true },
    });
    expect(quarantines(rec, rec.lanes[0]!.id)).toEqual([]);
    expect(rec.turns[rec.lanes[0]!.id]![0]!.engine.engineId).toBe('oversized-result');
  }, 60_000);

  it('reports a host that reaches its heap cap as out of memory, not as a timeout or a signal', async () => {
    const before = childPids();
    const rec = await replaySession({
      session: session(),
      lanes: [{ engine: { kind: 'plugin', plugin: join(FIXTURES, 'memory-hog') }, contextWindow: 32_000 }],
      plugins: { allowExecute: true, maxHeapMb: 64, callTimeoutMs: 25_000 },
    });
    expect(quarantines(rec, rec.lanes[0]!.id)).toMatchObject([
      { operation: 'assemble', reason: 'engine host ran out of memory (its heap cap is 64 MB)' },
    ]);
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
    expect(readdirSync(ownTmp)).toEqual([]);
  }, 60_000);
});

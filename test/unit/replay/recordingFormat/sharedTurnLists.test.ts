/**
 * In memory, a lane's turn lists are runs over one pool of the lane's items (src/view/listPool.ts,
 * sharedTurnLists.ts): a replayed or imported Recording holds about what its session holds, not every turn's whole
 * context, while `record.assembled` still reads as the full list.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AssembledRef, TurnRecord } from '../../../../src/contract/recording';
import { exportRecordingJson, importRecording, replaySession } from '../../../../src/replay';
import { decodeList, encodeList, sameRef } from '../../../../src/view/listDelta';
import { ListPool } from '../../../../src/view/listPool';
import { newAssembledPool, pooledAssembled, pooledMessages } from '../../../../src/view/sharedTurnLists';
import { SessionBuilder } from '../sessionBuilder';

const ref = (key: string, estTokens = 5): AssembledRef => ({ key, provenance: 'raw', estTokens, tiktokenTokens: 4 });
const refPool = () => new ListPool<AssembledRef>({ key: (r) => r.key, same: sameRef });

/** The numbers a record's pooled lists hold (pool positions, two per run). */
function runNumbers(records: readonly TurnRecord[]): number {
  return records.reduce(
    (n, r) =>
      n +
      (pooledAssembled(r)?.list.runs.length ?? 0) +
      (r.asSent ? (pooledMessages(r.asSent)?.list.runs.length ?? 0) : 0),
    0,
  );
}

describe('list pools', () => {
  it('read back every list added, whatever the lists (property)', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((k) => ref(k));
    fc.assert(
      fc.property(fc.array(fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 30 }), { maxLength: 25 }), (lists) => {
        const pool = refPool();
        const added = lists.map((positions) => {
          const list = positions.map((p) => items[p]!);
          return { list, pooled: pool.add(list) };
        });
        for (const { list, pooled } of added) {
          const read = pool.read(pooled);
          expect(read).toHaveLength(list.length);
          read.forEach((item, i) => expect(item).toBe(list[i]));
        }
      }),
    );
  });

  it('apply a file delta as decodeList does, without building the lists (property)', () => {
    const item = fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), estTokens: fc.integer({ min: 0, max: 2 }) });
    const list = fc.array(item, { maxLength: 30 }).map((l) => l.map((i) => ref(i.key, i.estTokens)));
    fc.assert(
      fc.property(list, fc.array(list, { minLength: 1, maxLength: 6 }), (first, rest) => {
        const pool = refPool();
        let base = first;
        let pooled = pool.add(first);
        for (const next of rest) {
          const delta = encodeList(next, base, (r) => r.key, sameRef);
          pooled = pool.addDelta(delta, pooled, 'x', (m) => new Error(m));
          expect(pool.read(pooled)).toEqual(decodeList({ delta }, base, 'x'));
          base = next;
        }
      }),
    );
  });

  it('keep a list broken once per turn at O(log) runs (the previous prompt left behind)', () => {
    // a wire view: the history, then this turn's prompt; the next turn's history holds the prompt's answer instead
    const pool = refPool();
    let history: AssembledRef[] = [];
    let maxRuns = 0;
    for (let t = 0; t < 2000; t++) {
      const prompt = ref(`prompt ${t}`);
      maxRuns = Math.max(maxRuns, pool.add([...history, prompt]).runs.length / 2);
      history = [...history, ref(`user ${t}`), ref(`answer ${t}`)];
    }
    expect(maxRuns).toBeLessThanOrEqual(2 * Math.log2(4000));
    // 6,000 items seen; whole lists would have been 4 million references
    expect(pool.size).toBeLessThan(6000 * Math.log2(4000));
  });

  it('hold a window sliding over the history as one run per turn over the history itself', () => {
    const pool = refPool();
    const history = Array.from({ length: 3000 }, (_, i) => ref(`m${i}`));
    for (let t = 1; t <= history.length; t++) {
      expect(pool.add(history.slice(Math.max(0, t - 40), t)).runs).toHaveLength(2);
    }
    expect(pool.size).toBe(history.length);
  });

  it('keep a compaction’s summary and its long kept tail as two runs, without copying the tail', () => {
    const pool = refPool();
    const history = Array.from({ length: 1000 }, (_, i) => ref(`m${i}`));
    pool.add(history);
    const compacted = pool.add([ref('summary'), ...history.slice(600)]);
    expect(compacted.runs).toEqual([1000, 1001, 600, 1000]);
    expect(pool.size).toBe(1001);
  });

  it('never copy more than an eighth of what the lists hold when an engine breaks them in the middle', () => {
    const pool = refPool();
    const items = Array.from({ length: 400 }, (_, i) => ref(`m${i}`));
    let total = 0;
    for (let t = 0; t < 300; t++) {
      // drop a different message from the middle every turn
      const list = items.filter((_, i) => i !== (t * 7) % 400);
      total += list.length;
      pool.add(list);
    }
    expect(pool.size).toBeLessThanOrEqual(items.length + 4096 + total / 8);
  });

  it('give the same array on repeated reads of a turn, and a plain value once assigned', async () => {
    const b = new SessionBuilder();
    for (let i = 0; i < 4; i++) b.turn(`question ${i}`, `answer ${i}`);
    const recording = await replaySession({
      session: b.loaded(),
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 200_000 }],
    });
    const record = recording.turns.legacy![3]!;
    expect(record.assembled).toBe(record.assembled);
    record.assembled = [ref('replaced')];
    expect(pooledAssembled(record)).toBeUndefined();
    expect(record.assembled.map((r) => r.key)).toEqual(['replaced']);
  });
});

async function thinChain(turns: number) {
  const b = new SessionBuilder();
  for (let i = 0; i < turns; i++) b.turn(`question ${i}`, `answer ${i}`);
  return replaySession({ session: b.loaded(), lanes: [{ engine: { kind: 'legacy' }, contextWindow: 200_000 }] });
}

/** References the turns' lists hold when read, and the numbers the pools and runs behind them hold. */
function footprint(turns: readonly TurnRecord[]): { listed: number; held: number } {
  const listed = turns.reduce((n, r) => n + r.assembled.length + (r.asSent?.messages.length ?? 0), 0);
  const last = turns[turns.length - 1]!;
  const held = pooledAssembled(last)!.pool.size + pooledMessages(last.asSent!)!.pool.size + runNumbers(turns);
  return { listed, held };
}

describe('a Recording in memory', () => {
  it('holds each lane turn’s lists as runs over the lane’s messages, not an array per turn', async () => {
    const recording = await thinChain(300);
    const turns = recording.turns.legacy!;
    const last = turns[299]!;
    expect(last.assembled).toHaveLength(598);
    for (const record of turns) {
      // no array is stored on the record: the list is built from the pool when read
      expect(Object.getOwnPropertyDescriptor(record, 'assembled')?.get).toBeDefined();
      expect(Object.getOwnPropertyDescriptor(record.asSent!, 'messages')?.get).toBeDefined();
      expect(pooledAssembled(record)!.pool).toBe(pooledAssembled(last)!.pool);
    }
    // legacy resends the whole history: one run per turn over a pool of the session's messages
    expect(pooledAssembled(last)!.list.runs).toEqual([0, 598]);
    expect(pooledAssembled(last)!.pool.size).toBe(598);
    const { listed, held } = footprint(turns);
    expect(listed).toBeGreaterThan(170_000);
    expect(held * 15).toBeLessThan(listed);
  });

  it('grows with the session: twice the turns hold about twice as much, while the lists read hold four times', async () => {
    const half = footprint((await thinChain(150)).turns.legacy!);
    const full = footprint((await thinChain(300)).turns.legacy!);
    expect(full.listed / half.listed).toBeGreaterThan(3.8);
    expect(full.held / half.held).toBeLessThan(2.6);
  });

  it('is imported from a format-2 file in the same form, and reads as the Recording written', async () => {
    const recording = await thinChain(300);
    const json = exportRecordingJson(recording);
    const back = importRecording(json);
    expect(JSON.stringify(back)).toBe(JSON.stringify(recording));
    const turns = back.turns.legacy!;
    expect(pooledAssembled(turns[299]!)!.list.runs).toEqual([0, 598]);
    const { listed, held } = footprint(turns);
    expect(held * 15).toBeLessThan(listed);
  });

  it('finds an equal copy of an item it holds (lists decoded from JSON) instead of holding it again', () => {
    const pool = newAssembledPool();
    const a = ref('a');
    const read = pool.read(pool.add([a, ref('a'), a]));
    expect(read).toHaveLength(3);
    for (const item of read) expect(item).toBe(a);
  });
});

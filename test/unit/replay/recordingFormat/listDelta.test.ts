/**
 * Recording file format 2: a lane turn's `assembled` and `asSent.messages` are written against the lane's previous
 * turn, read back to the same lists (sharing the previous turn's objects), and a damaged delta is refused with its
 * place. The file grows with the session, not with turns × context.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AssembledRef, TurnRecord } from '../../../../src/contract/recording';
import { exportRecordingJson, importRecording, RecordingImportError, replaySession } from '../../../../src/replay';
import { decodeLaneTurns, decodeList, encodeList, encodeTurnRecord, sameRef } from '../../../../src/view/listDelta';
import { parseRecordingFile } from '../../../../renderer/src/model/recordingFile';
import { SessionBuilder } from '../sessionBuilder';

const ref = (key: string, estTokens = 5): AssembledRef => ({ key, provenance: 'raw', estTokens, tiktokenTokens: 4 });

describe('list deltas', () => {
  it('encode a grown list as one run of the previous list plus the new items', () => {
    const base = ['a', 'b', 'c'].map((k) => ref(k));
    const next = [...base, ref('d'), ref('e')];
    expect(encodeList(next, base, (r) => r.key, sameRef)).toEqual([[0, 3], ref('d'), ref('e')]);
  });

  it('encode a compacted list as the summary plus the kept tail', () => {
    const base = ['a', 'b', 'c', 'd', 'e'].map((k) => ref(k));
    const next = [ref('summary'), base[3]!, base[4]!, ref('f')];
    expect(encodeList(next, base, (r) => r.key, sameRef)).toEqual([ref('summary'), [3, 5], ref('f')]);
  });

  it('an item whose counts changed is written again, not referenced', () => {
    const base = [ref('a'), ref('b')];
    expect(encodeList([ref('a'), ref('b', 9)], base, (r) => r.key, sameRef)).toEqual([[0, 1], ref('b', 9)]);
  });

  it('decode to the same list for any previous and next list (property)', () => {
    const item = fc.record({
      key: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
      estTokens: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), fc.array(item, { maxLength: 40 }), (baseIn, nextIn) => {
        const base = baseIn.map((i) => ref(i.key, i.estTokens));
        const next = nextIn.map((i) => ref(i.key, i.estTokens));
        const runs = encodeList(next, base, (r) => r.key, sameRef);
        expect(decodeList({ delta: runs }, base, 'x')).toEqual(next);
      }),
    );
  });

  it('decoded lists share the previous list’s objects', () => {
    const base = [ref('a'), ref('b')];
    const decoded = decodeList({ delta: [[0, 2], ref('c')] }, base, 'x');
    expect(decoded[0]).toBe(base[0]);
    expect(decoded[1]).toBe(base[1]);
  });

  it('refuse a run past the previous list and a delta with no previous turn, naming the place', () => {
    expect(() => decodeList({ delta: [[0, 3]] }, [ref('a')], '$.turns.legacy[1].assembled')).toThrow(
      "$.turns.legacy[1].assembled.delta[0] reaches item 3, but the lane's previous turn has 1",
    );
    expect(() => decodeList({ delta: [[0, 1]] }, undefined, '$.turns.legacy[0].assembled')).toThrow(
      '$.turns.legacy[0].assembled is a delta, but its lane has no previous turn to apply it to',
    );
  });
});

async function longRecording(turns: number) {
  const b = new SessionBuilder();
  for (let i = 0; i < turns; i++) b.turn(`question ${i}`, `answer ${i}`);
  return replaySession({ session: b.loaded(), lanes: [{ engine: { kind: 'legacy' }, contextWindow: 200_000 }] });
}

describe('recording files (format 2)', () => {
  it('hold each turn as a delta, so a file grows with the session, and read back to the same Recording', async () => {
    const recording = await longRecording(120);
    const json = exportRecordingJson(recording);
    const doc = JSON.parse(json) as { schemaVersion: number; turns: { legacy: { assembled: unknown }[] } };
    expect(doc.schemaVersion).toBe(2);
    // turn 100 assembled 200 messages; the file holds the previous turn's 198 as one run and the 2 new ones
    expect(recording.turns.legacy![100]!.assembled).toHaveLength(200);
    expect(doc.turns.legacy[100]!.assembled).toMatchObject({ delta: [[0, 198], {}, {}] });
    const full = JSON.stringify(recording);
    expect(json.length * 4).toBeLessThan(full.length);

    const back = importRecording(json);
    expect(JSON.stringify(back)).toBe(full);
    // the renderer reads dropped files with the same decoder
    const dropped = parseRecordingFile(json, 'run.json');
    expect(dropped.ok && JSON.stringify(dropped.recording)).toBe(full);
  });

  it('share reference objects between consecutive turns in memory', async () => {
    const recording = await longRecording(5);
    const [t3, t4] = [recording.turns.legacy![3]!, recording.turns.legacy![4]!];
    expect(t4.assembled[0]).toBe(t3.assembled[0]);
    expect(t4.asSent!.messages[0]).toBe(t3.asSent!.messages[0]);
  });

  it('still import version 1 files (every list in full)', async () => {
    const recording = await longRecording(4);
    const v1 = JSON.stringify(recording);
    expect(JSON.parse(v1).schemaVersion).toBe(1);
    expect(JSON.stringify(importRecording(v1))).toBe(v1);
  });

  it('refuse a damaged delta with its JSON path', async () => {
    const doc = JSON.parse(exportRecordingJson(await longRecording(6)));
    doc.turns.legacy[5].assembled.delta[0] = [0, 999];
    expect(() => importRecording(JSON.stringify(doc), 'run.json')).toThrow(RecordingImportError);
    expect(() => importRecording(JSON.stringify(doc), 'run.json')).toThrow(
      "run.json cannot be imported: $.turns.legacy[5].assembled.delta[0] reaches item 999, but the lane's previous turn has 8.",
    );
    expect(parseRecordingFile(JSON.stringify(doc), 'run.json')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('reaches item 999'),
    });
  });

  it('a page turn decodes against the turns before it (stream pages)', async () => {
    const turns = (await longRecording(6)).turns.legacy!;
    const encoded = turns.map((t, i) => encodeTurnRecord(t, turns[i - 1]));
    expect(encoded[5]!.assembled).toHaveProperty('delta');
    expect(decodeLaneTurns(encoded, 'legacy')).toEqual(turns as TurnRecord[]);
  });
});

/**
 * Properties of the alignment on random lanes: a lane aligned with itself differs nowhere, and every assembled
 * message of every lane (raw, modified, summary, synthetic, repeated) lands in exactly one row, as does every
 * transcript message of the history.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alignTurn, compareLanes, turnDifference } from '../../../src/view';
import { ViewRecording, type RefSpec, type TurnSpec } from './viewRecording';

const KEYS = Array.from({ length: 24 }, (_, i) => `${['u', 'a', 't'][i % 3]}${i}`);

const refArb = (history: number, lane: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.nat({ max: Math.max(0, history - 1) }).map((i): RefSpec => KEYS[i]!) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.nat({ max: Math.max(0, history - 1) }), fc.nat(3))
        .map(([i, v]): RefSpec => ({ modified: KEYS[i]!, key: `h:m${i}-${lane}-${v}`, text: `changed ${v}` })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.nat({ max: Math.max(0, history - 1) }), fc.nat(4), fc.boolean())
        .map(([from, len, stated]): RefSpec => {
          const to = Math.min(history, from + 1 + len);
          return stated
            ? { summary: `s${from}-${to}-${lane}`, covers: [[from, to]] }
            : { summary: `s?${from}-${lane}`, text: `summary ${from}` };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom('memory', 'recall'), fc.nat(2)).map(([customType, v]): RefSpec => ({
        synthetic: `h:syn-${customType}-${v}-${lane}`,
        customType,
        text: `${customType} ${v}`,
      })),
    },
  );

const turnArb = (lane: number) =>
  fc.integer({ min: 1, max: KEYS.length }).chain((history) =>
    fc.record({
      history: fc.constant(history),
      assembled: fc.array(refArb(history, lane), { maxLength: 30 }),
      summarized: fc
        .tuple(fc.nat({ max: history }), fc.nat({ max: history }))
        .map(([a, b]): [number, number][] => (a < b ? [[a, b]] : [])),
    }),
  );

const lanesArb = fc.array(fc.array(turnArb(0), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 3 });

function build(lanes: TurnSpec[][]) {
  const rec = new ViewRecording(KEYS);
  lanes.forEach((turns, i) => rec.lane(`lane${i}`, turns));
  return rec.build();
}

describe('alignment properties', () => {
  it('aligning a lane with itself gives no differences', () => {
    fc.assert(
      fc.property(lanesArb, (lanes) => {
        const rec = build(lanes);
        for (const lane of rec.lanes) {
          const input = compareLanes(rec, [lane.id, lane.id]);
          for (let t = 0; t < lane.turnCount; t++) {
            expect(turnDifference(input, t).differs).toBe(false);
            expect(alignTurn(input, t).rows.every((row) => row.agree)).toBe(true);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('every assembled message of every lane, and every history message, is in exactly one row', () => {
    fc.assert(
      fc.property(lanesArb, (lanes) => {
        const rec = build(lanes);
        const input = compareLanes(rec);
        const turns = Math.max(...lanes.map((l) => l.length));
        for (let t = 0; t < turns; t++) {
          const aligned = alignTurn(input, t);
          expect(new Set(aligned.rows.map((r) => r.id)).size).toBe(aligned.rows.length);
          input.columns.forEach((column, c) => {
            const record = rec.turns[column.lane.id]![t];
            const positions = aligned.rows.flatMap((r) =>
              r.cells[c]!.position === null ? [] : [r.cells[c]!.position!],
            );
            expect(positions.sort((x, y) => x - y)).toEqual((record?.assembled ?? []).map((_, p) => p));
            for (const row of aligned.rows) {
              const cell = row.cells[c]!;
              if (cell.position !== null) expect(cell.key).toBe(record!.assembled[cell.position]!.key);
            }
          });
          const history = Math.max(0, ...input.columns.map((col) => rec.turns[col.lane.id]![t]?.historyCount ?? 0));
          const transcriptRows = aligned.rows.filter((r) => r.transcriptIndex !== null).map((r) => r.transcriptIndex);
          for (let i = 0; i < history; i++) expect(transcriptRows.filter((x) => x === i)).toHaveLength(1);
        }
      }),
      { numRuns: 150 },
    );
  });
});

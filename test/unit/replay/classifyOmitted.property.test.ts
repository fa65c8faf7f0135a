/**
 * classifyOmitted works by interval arithmetic over the assembled messages; this checks it against the
 * definition, index by index: a history position is kept when an assembled raw/modified message comes from it,
 * summarized when not kept and covered (by a summary's ranges, or by an implicit summary up to the next kept
 * message after it), dropped otherwise.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyOmitted, indicesToRanges, type ClassifiedMessage, type ReferenceIndex } from '../../../src/replay';

function byDefinition(historyCount: number, assembled: readonly ClassifiedMessage[], reference: ReferenceIndex) {
  const positionOf = (item: ClassifiedMessage) => {
    const source = item.provenance === 'raw' ? item.key : item.provenance === 'modified' ? item.sourceKey : undefined;
    return source === undefined ? undefined : reference.position.get(source);
  };
  const kept = new Array<boolean>(historyCount).fill(false);
  const covered = new Array<boolean>(historyCount).fill(false);
  assembled.forEach((item, i) => {
    const pos = positionOf(item);
    if (pos !== undefined && pos < historyCount) kept[pos] = true;
    for (const [from, to] of item.covers ?? [])
      for (let p = Math.max(0, from); p < Math.min(to, historyCount); p++) covered[p] = true;
    if (item.implicitCovers) {
      let next = historyCount;
      for (let j = i + 1; j < assembled.length; j++) {
        const p = positionOf(assembled[j]!);
        if (p !== undefined) {
          next = p;
          break;
        }
      }
      for (let p = 0; p < Math.min(next, historyCount); p++) covered[p] = true;
    }
  });
  const dropped: number[] = [];
  const summarized: number[] = [];
  for (let p = 0; p < historyCount; p++) if (!kept[p]) (covered[p] ? summarized : dropped).push(p);
  return {
    dropped: indicesToRanges(dropped),
    summarized: indicesToRanges(summarized),
    droppedCount: dropped.length,
    summarizedCount: summarized.length,
    keptCount: kept.filter(Boolean).length,
  };
}

const item = (positions: number) =>
  fc.oneof(
    fc.record({ key: fc.nat(positions + 3).map((p) => `m${p}`), provenance: fc.constant('raw' as const) }),
    fc.record({
      key: fc.constant('x'),
      provenance: fc.constant('modified' as const),
      sourceKey: fc.nat(positions + 3).map((p) => `m${p}`),
    }),
    fc.record({
      key: fc.constant('s'),
      provenance: fc.constant('summary' as const),
      covers: fc.array(
        fc.tuple(fc.integer({ min: -2, max: positions + 2 }), fc.integer({ min: -2, max: positions + 4 })),
        { maxLength: 3 },
      ),
    }),
    fc.record({
      key: fc.constant('s'),
      provenance: fc.constant('summary' as const),
      implicitCovers: fc.constant(true),
    }),
    fc.record({ key: fc.constant('y'), provenance: fc.constant('synthetic' as const) }),
  );

describe('classifyOmitted', () => {
  it('equals the per-index definition (property)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 0, max: 40 })
          .chain((n) =>
            fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n + 3 }), fc.array(item(n), { maxLength: 12 })),
          ),
        ([positions, historyCount, assembled]) => {
          const reference = {
            position: new Map(Array.from({ length: positions }, (_, i) => [`m${i}`, i])),
          } as unknown as ReferenceIndex;
          expect(classifyOmitted(historyCount, assembled, reference)).toEqual(
            byDefinition(historyCount, assembled, reference),
          );
        },
      ),
      { numRuns: 2000, seed: 20261130 },
    );
  });
});

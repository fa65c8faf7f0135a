import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry, SessionTranscriptHandle } from '../../../src/contract';
import { compactTranscript } from '../../../src/engines/legacy';
import { LaneTranscript } from '../../../src/replay/lane/laneTranscript';

const HEADER = {
  type: 'session',
  version: 3,
  id: 'sess-ctx',
  timestamp: '2026-01-05T10:00:00.000Z',
  cwd: '/w',
} as const;
const t = (n: number) => 'x'.repeat(4 * n);

/** The handle without `contextMessages()`: compactTranscript then builds the context from the whole path. */
function plainHandle(handle: SessionTranscriptHandle): SessionTranscriptHandle {
  return {
    sessionId: handle.sessionId,
    sessionFile: handle.sessionFile,
    header: handle.header,
    activePath: () => handle.activePath(),
    leafId: () => handle.leafId(),
    appendEntry: (entry) => handle.appendEntry(entry),
  };
}

const messageArb: fc.Arbitrary<AgentMessage> = fc.oneof(
  fc
    .integer({ min: 5, max: 120 })
    .map((n) => ({ role: 'user', content: `request src/f${n}.ts ${t(n)}`, timestamp: 1 }) as AgentMessage),
  fc.integer({ min: 5, max: 120 }).map(
    (n) =>
      ({
        role: 'assistant',
        content: [
          { type: 'text', text: `working ${t(n)}` },
          { type: 'toolCall', id: `c${n % 3}`, name: 'read', arguments: { path: `src/f${n}.ts` } },
        ],
        stopReason: 'toolUse',
        timestamp: 2,
      }) as AgentMessage,
  ),
  fc.integer({ min: 5, max: 200 }).map(
    (n) =>
      ({
        role: 'toolResult',
        toolCallId: `c${n % 3}`,
        toolName: 'read',
        content: [{ type: 'text', text: t(n) }],
        isError: false,
        timestamp: 3,
      }) as AgentMessage,
  ),
  fc.integer({ min: 5, max: 120 }).map(
    (n) =>
      ({
        role: 'assistant',
        content: [{ type: 'text', text: `done ${t(n)}` }],
        stopReason: 'stop',
        timestamp: 4,
      }) as AgentMessage,
  ),
);
const stepArb = fc.oneof(
  { weight: 4, arbitrary: messageArb.map((message) => ({ kind: 'append' as const, message })) },
  { weight: 1, arbitrary: fc.boolean().map((unresolved) => ({ kind: 'compact' as const, unresolved })) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('reset', 'compaction'), fc.nat())
      .map(([type, back]) => ({ kind: 'recordedBoundary' as const, type, back })),
  },
);

describe('compactTranscript on a lane transcript', () => {
  it('gives the same results from the lane’s tracked context as from the context rebuilt from the whole path', async () => {
    let n = 0;
    let compacted = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 20, maxLength: 60 }), async (steps) => {
        const lanes = [0, 1].map(
          (i) => new LaneTranscript({ header: HEADER, sessionFile: `/nonexistent/${i}.jsonl`, writeFile: false }),
        );
        const [tracked, plain] = lanes as [LaneTranscript, LaneTranscript];
        const settings = { enabled: true, reserveTokens: 200, keepRecentTokens: 60 };
        for (const step of steps) {
          if (step.kind === 'append') {
            const entry = {
              type: 'message',
              id: `r${++n}`,
              parentId: null,
              timestamp: HEADER.timestamp,
              message: step.message,
            } as SessionEntry;
            for (const lane of lanes) lane.appendRecorded(entry);
            continue;
          }
          if (step.kind === 'recordedBoundary') {
            // a recorded reset/compaction whose kept entry is an earlier recorded message (or one never appended)
            const firstKeptEntryId = `r${Math.max(0, n - (step.back % 12))}`;
            const fields =
              step.type === 'reset'
                ? { reason: 'new' }
                : { summary: '## Goal\n- earlier work on src/f1.ts', tokensBefore: 9 };
            const entry = {
              type: step.type,
              id: `b${++n}`,
              parentId: null,
              timestamp: HEADER.timestamp,
              firstKeptEntryId,
              ...fields,
            } as SessionEntry;
            for (const lane of lanes) lane.appendRecorded(entry);
            continue;
          }
          const options = { settings, force: true, latestRequestUnresolved: step.unresolved };
          const a = await compactTranscript({ ...options, transcript: tracked.handle });
          const b = await compactTranscript({ ...options, transcript: plainHandle(plain.handle) });
          const view = (lane: LaneTranscript, r: typeof a) => ({
            ...r,
            entry: undefined,
            result: r.result && {
              ...r.result,
              firstKeptEntryId: r.result.firstKeptEntryId && lane.keyOf(r.result.firstKeptEntryId),
            },
          });
          expect(view(tracked, a)).toEqual(view(plain, b));
          if (a.compacted) compacted++;
        }
      }),
      { numRuns: 200 },
    );
    expect(compacted).toBeGreaterThan(300);
  });
});

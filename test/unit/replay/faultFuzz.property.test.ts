/**
 * Fuzzing the two boundaries a replay reads untrusted data at (issue 17, "Done when"): transcript lines (garbled,
 * cut, their messages given random shapes) and engine results (random AssembleResult-like values, and random
 * results of the other operations, from an in-process engine). No replay may end with an unexpected error, and
 * every bad input must surface with its place: a transcript line is either an entry or a problem on that line; an
 * engine result the host cannot use quarantines the lane with the operation and the JSON path; the other lane is
 * never touched. Run counts are small so each property takes a few seconds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exportRecordingJson, replaySession, type Recording, type ReplayLaneConfig } from '../../../src/replay';
import { readSessionFile, serializeSessionEntries } from '../../../src/transcripts';
import { recordingEngine, SessionBuilder, tempDir } from './sessionBuilder';

const builder = () => new SessionBuilder().turn('first question').turn('second question').turn('third question');
const legacy: ReplayLaneConfig = { engine: { kind: 'legacy' }, contextWindow: 32000 };

/** A value of any JSON-ish shape, including the ones that broke readers: numbers for text, deep nesting, nulls. */
const wildValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(Number.NaN, Infinity, -1, 12345, null, '', 'martian', [], {}),
);
const contentBlock = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'thinking', 'image', 'toolCall', 'weird'), text: wildValue }),
  fc.record({ type: fc.constantFrom('text', 'thinking'), thinking: wildValue, text: fc.string() }),
  wildValue,
);
const messageLike = fc.oneof(
  fc.record(
    {
      role: fc.oneof(
        fc.constantFrom('user', 'assistant', 'toolResult', 'custom', 'compactionSummary', 'bashExecution'),
        fc.string(),
        wildValue,
      ),
      content: fc.oneof(fc.string(), fc.array(contentBlock, { maxLength: 3 }), wildValue),
      summary: wildValue,
      toolCallId: wildValue,
      timestamp: fc.oneof(fc.integer(), wildValue),
    },
    { requiredKeys: ['role'] },
  ),
  wildValue,
);

/** How one line of a good transcript is damaged. */
const lineMutation = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), text: fc.string({ maxLength: 40 }) }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('bytes' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }) }),
  fc.record({ kind: fc.constant('message' as const), message: messageLike }),
  fc.record({ kind: fc.constant('deep' as const), levels: fc.constantFrom(250, 10_000) }),
);
type LineMutation = typeof lineMutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(line: string, mutation: LineMutation): string {
  switch (mutation.kind) {
    case 'replace':
      return mutation.text.replace(/\n/g, ' ');
    case 'cut':
      return line.slice(0, mutation.at % Math.max(1, line.length));
    case 'bytes':
      return line + Buffer.from(mutation.bytes).toString('latin1').replace(/\n/g, ' ');
    case 'message': {
      const entry = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify({ ...entry, message: mutation.message }) ?? line;
    }
    case 'deep':
      return line.replace(/}$/, `,"x":${'['.repeat(mutation.levels)}${']'.repeat(mutation.levels)}}`);
  }
}

describe('fuzzed transcript lines', () => {
  it('every line is an entry or a problem on that line, and the replay of the rest completes', async () => {
    const b = builder();
    const good = serializeSessionEntries(b.header, b.entries).trimEnd().split('\n');
    const dir = tempDir();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(fc.integer({ min: 1, max: good.length - 1 }), lineMutation), {
          minLength: 1,
          maxLength: 3,
          selector: ([index]) => index,
        }),
        async (mutations) => {
          const lines = [...good];
          for (const [index, mutation] of mutations) lines[index] = mutate(lines[index]!, mutation);
          const file = join(dir, `fuzz-${run++}.jsonl`);
          writeFileSync(file, lines.join('\n') + '\n');

          const loaded = await readSessionFile(file, { mode: 'tolerant' });
          const problemLines = new Set(loaded.problems.map((p) => p.line));
          const entryLines = new Set(loaded.entryLines);
          lines.forEach((text, i) => {
            if (i === 0 || text.trim() === '') return;
            // physical line i + 1 is read as an entry or reported as a problem there: nothing vanishes silently
            expect(entryLines.has(i + 1) || problemLines.has(i + 1), `line ${i + 1}: ${text.slice(0, 60)}`).toBe(true);
          });
          for (const p of loaded.problems) expect(p.line).toBeLessThanOrEqual(lines.length);

          const recording = await replaySession({ session: file, lanes: [legacy] });
          expect(recording.lanes[0]!.turnCount).toBeGreaterThanOrEqual(0);
          expect(() => exportRecordingJson(recording)).not.toThrow();
          // each problem is also a finding of the replay, with file:line
          const listed = recording.findings.filter((f) => f.code === 'session-problem').map((f) => f.message);
          for (const p of loaded.problems.slice(0, 20))
            expect(listed).toContain(`${file}:${p.line}: ${p.code}: ${p.message}`);
        },
      ),
      {
        numRuns: 12,
        // found by this property: a timestamp whose `toString` is not a function broke the replay before turn 1
        examples: [[[[1, { kind: 'message', message: { role: 'user', content: [], timestamp: [{ toString: '' }] } }]]]],
      },
    );
  }, 120_000);
});

/**
 * A lane's turns without what two runs never share: timings, the run-wide sequence, and the content keys of
 * compaction summaries (they carry the wall-clock time they were written at).
 */
function comparable(recording: Recording, lane: string): unknown {
  return JSON.parse(
    JSON.stringify(recording.turns[lane], (key, value: unknown) => {
      if (key === 'startedAtMs' || key === 'durationMs' || key === 'seq') return 0;
      if (value && typeof value === 'object' && (value as { provenance?: unknown }).provenance === 'summary')
        return { ...value, key: 'summary' };
      return value;
    }),
  );
}

describe('fuzzed engine results', () => {
  const resultOf = {
    assemble: fc.oneof(
      fc.record(
        {
          messages: fc.oneof(
            { arbitrary: fc.array(messageLike, { minLength: 1, maxLength: 4 }), weight: 4 },
            { arbitrary: wildValue, weight: 1 },
          ),
          estimatedTokens: fc.oneof(fc.double(), wildValue),
          systemPromptAddition: fc.oneof(fc.string(), wildValue),
        },
        { requiredKeys: ['messages'] },
      ),
      wildValue,
    ),
    compact: fc.oneof(
      fc.record(
        {
          ok: fc.oneof(fc.boolean(), wildValue),
          compacted: fc.oneof(fc.boolean(), wildValue),
          result: fc.oneof(fc.record({ tokensBefore: wildValue, summary: wildValue }), wildValue),
        },
        { requiredKeys: [] },
      ),
      wildValue,
    ),
    ingest: fc.oneof(fc.record({ ingested: wildValue }), wildValue),
  };

  it('no replay ends with an error; a result the host cannot use quarantines the lane with its path, the other lane is untouched', async () => {
    // long turns in a small window: the engine is asked to compact too
    const session = () => {
      const b = new SessionBuilder();
      for (let i = 0; i < 4; i++) b.turn(`${'q'.repeat(3000)} ${i}`, 'a'.repeat(3000));
      return b.loaded();
    };
    const legacy: ReplayLaneConfig = { engine: { kind: 'legacy' }, contextWindow: 8000 };
    const alone = await replaySession({ session: session(), lanes: [legacy] });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(fc.constant('assemble'), resultOf.assemble),
          fc.tuple(fc.constant('compact'), resultOf.compact),
          fc.tuple(fc.constant('ingest'), resultOf.ingest),
        ),
        async ([method, value]) => {
          const engine = recordingEngine(
            { id: 'fuzzed' },
            // the host's messages are kept for the methods that are not fuzzed, so the lane keeps running
            { [method]: async () => structuredClone(value) },
          );
          const recording = await replaySession({
            session: session(),
            lanes: [
              legacy,
              {
                engine: { kind: 'in-process', engineId: 'fuzzed', factory: engine.factory as never },
                contextWindow: 8000,
              },
            ],
          });
          expect(comparable(recording, 'legacy')).toEqual(comparable(alone, 'legacy'));
          expect(() => exportRecordingJson(recording)).not.toThrow();
          const lane = recording.lanes[1]!.id;
          const quarantines = recording.turns[lane]!.flatMap((t) => t.events.filter((e) => e.type === 'quarantine'));
          const codes = recording.findings.filter((f) => f.lane === lane).map((f) => f.code);
          if (method === 'ingest') {
            // OpenClaw ignores ingest's result: never a quarantine, but a malformed one is a finding
            expect(quarantines).toEqual([]);
            const wellFormed =
              typeof value === 'object' &&
              value !== null &&
              typeof (value as { ingested?: unknown }).ingested === 'boolean';
            if (value === undefined) expect(codes).toContain('void-result');
            else if (!wellFormed) expect(codes).toContain('invalid-result');
          }
          const record = (v: unknown): v is Record<string, unknown> =>
            typeof v === 'object' && v !== null && !Array.isArray(v);
          const unreadable =
            method === 'assemble'
              ? record(value) && Array.isArray(value.messages) && !value.messages.every((m) => record(m))
              : method === 'compact' &&
                engine.callsOf('compact').length > 0 &&
                (!record(value) || typeof value.ok !== 'boolean' || typeof value.compacted !== 'boolean');
          // a message that is not an object, a compact result without its booleans: the lane is quarantined
          if (unreadable) expect(quarantines.length).toBe(1);
          for (const q of quarantines) {
            expect(q).toMatchObject({ engineId: 'fuzzed', operation: method });
            // the reason names the JSON path of what is wrong
            expect((q as { reason: string }).reason).toMatch(
              /returned an invalid (AssembleResult|CompactResult): (the result|messages\[\d+\]|systemPromptAddition|ok|compacted|result)/,
            );
          }
        },
      ),
      { numRuns: 14 },
    );
  }, 120_000);
});

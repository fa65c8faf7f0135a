import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry } from '../../../src/contract';
import { LaneTranscript } from '../../../src/replay/lane/laneTranscript';
import { buildContextFromPath, getActivePath, parseSessionText, serializeSessionLine } from '../../../src/transcripts';
import { HEADER, assistant, call, result, user } from '../transcripts/entryBuilders';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newLane(writeFile = true, deferWrites = false): LaneTranscript {
  const dir = mkdtempSync(join(tmpdir(), 'cs-lane-'));
  dirs.push(dir);
  return new LaneTranscript({
    header: HEADER,
    sessionFile: join(dir, 'sessions', 'lane.jsonl'),
    writeFile,
    deferWrites,
  });
}

let recordedCounter = 0;
function recorded(message: AgentMessage): SessionEntry {
  recordedCounter++;
  return { type: 'message', id: `r${recordedCounter}`, parentId: null, timestamp: '2026-01-05T10:00:00.000Z', message };
}

/** The file matches the active path line for line (header, then every entry the path was built from). */
function expectFileCurrent(lane: LaneTranscript, file: string): void {
  const text = readFileSync(file, 'utf8');
  const parsed = parseSessionText(text, file);
  const path = lane.activePath();
  expect(getActivePath(parsed).map((e) => e.id)).toEqual(path.map((e) => e.id));
  const lines = new Set(text.split('\n').map((l) => `${l}\n`));
  for (const entry of path) expect(lines.has(serializeSessionLine(entry))).toBe(true);
}

const messageArb: fc.Arbitrary<AgentMessage> = fc.oneof(
  fc.constantFrom('hi', 'next').map((t) => user(t)),
  fc.constantFrom('c1', 'c2').map((id) => assistant('calling', [call(id)])),
  fc.constantFrom('c1', 'c2').map((id) => result(id)),
  fc.constant(assistant('done')),
);
const stepArb = fc.oneof(
  { weight: 6, arbitrary: messageArb.map((message) => ({ kind: 'recorded' as const, message })) },
  { weight: 1, arbitrary: fc.nat().map((keep) => ({ kind: 'compaction' as const, keep })) },
  { weight: 1, arbitrary: fc.nat().map((keep) => ({ kind: 'reset' as const, keep })) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), messageArb).map(([at, message]) => ({ kind: 'rewrite' as const, at, message })),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'materialize' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'context' as const }) },
);

describe('LaneTranscript', () => {
  it('context() and the handle’s contextMessages() equal buildContextFromPath(activePath()) after random appends, boundaries, rewrites', () => {
    fc.assert(
      fc.property(fc.array(stepArb, { maxLength: 30 }), (steps) => {
        const lane = newLane();
        const handle = lane.handle as typeof lane.handle & { contextMessages(): readonly AgentMessage[] };
        for (const step of steps) {
          const path = lane.activePath();
          if (step.kind === 'recorded') lane.appendRecorded(recorded(step.message));
          else if (step.kind === 'compaction' || step.kind === 'reset') {
            const firstKeptEntryId = path.length > 0 ? path[step.keep % path.length]!.id : undefined;
            if (step.kind === 'compaction')
              handle.appendEntry({ type: 'compaction', summary: 'S', firstKeptEntryId, tokensBefore: 1 } as never);
            else handle.appendEntry({ type: 'reset', reason: 'new', firstKeptEntryId } as never);
          } else if (step.kind === 'rewrite') {
            const messages = path.filter((e) => e.type === 'message');
            if (messages.length > 0)
              lane.rewriteEntries({
                replacements: [{ entryId: messages[step.at % messages.length]!.id, message: step.message }],
              });
          } else if (step.kind === 'materialize') lane.materialize();
          const expected = buildContextFromPath(lane.activePath()).messages;
          if (step.kind === 'context') expect(lane.context().messages).toEqual(expected);
          expect(handle.contextMessages()).toEqual(expected);
          if (lane.existsOnDisk()) expectFileCurrent(lane, lane.sessionFile);
        }
        expect(lane.context().messages).toEqual(buildContextFromPath(lane.activePath()).messages);
      }),
      { numRuns: 300 },
    );
  });

  it('writes recorded entries at materialize(), and everything else at once', () => {
    const lane = newLane();
    lane.appendRecorded(recorded(user('first')));
    lane.materialize();
    const file = join(lane.sessionFile);
    expectFileCurrent(lane, file);
    lane.appendRecorded(recorded(user('second')));
    lane.appendRecorded(recorded(assistant('reply')));
    lane.materialize();
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(4);
    expectFileCurrent(lane, file);
    // appends through the handle (engines, the built-in compaction) and rewrites are in the file when they return
    const first = lane.activePath()[0]!.id;
    lane.handle.appendEntry({ type: 'compaction', summary: 'S', firstKeptEntryId: first, tokensBefore: 3 } as never);
    expectFileCurrent(lane, file);
    lane.rewriteEntries({ replacements: [{ entryId: first, message: user('rewritten') }] });
    expectFileCurrent(lane, file);
    // and whoever reads the path gets a current file
    lane.appendRecorded(recorded(user('third')));
    expectFileCurrent(lane, lane.sessionFile);
    expect(lane.handle.sessionFile).toBe(file);
  });

  it('never writes a file when writeFile is false', () => {
    const lane = newLane(false);
    lane.appendRecorded(recorded(user('first')));
    lane.materialize();
    expect(lane.existsOnDisk()).toBe(false);
    expect(lane.handle.sessionFile).toBeUndefined();
    expect(lane.fileBytes()).toBe(0);
  });

  it('with deferred writes, writes nothing until asked, then the same file as a lane that writes through', () => {
    const deferred = newLane(true, true);
    const eager = newLane(true, false);
    const both = (fn: (lane: LaneTranscript) => void) => [deferred, eager].forEach(fn);
    both((lane) => lane.appendRecorded(recorded(user('first'))));
    both((lane) => lane.materialize());
    both((lane) => lane.appendRecorded(recorded(assistant('reply'))));
    both((lane) => lane.materialize());
    const firstDeferred = deferred.activePath()[0]!.id;
    const firstEager = eager.activePath()[0]!.id;
    deferred.handle.appendEntry({
      type: 'compaction',
      summary: 'S',
      firstKeptEntryId: firstDeferred,
      tokensBefore: 3,
    } as never);
    eager.handle.appendEntry({
      type: 'compaction',
      summary: 'S',
      firstKeptEntryId: firstEager,
      tokensBefore: 3,
    } as never);
    // it "exists" for OpenClaw's bootstrap rule, and engine calls get its path, but nothing is on disk yet
    expect(deferred.existsOnDisk()).toBe(true);
    const path = deferred.engineSessionFile;
    expect(existsSync(path)).toBe(false);
    // reading sessionFile (or flush) writes it whole; it holds what the write-through lane's file holds
    expectFileCurrent(deferred, deferred.sessionFile);
    const lines = (lane: LaneTranscript) => readFileSync(lane.sessionFile, 'utf8').split('\n').length;
    expect(lines(deferred)).toBe(lines(eager));
    // and is kept current from then on when asked again
    deferred.appendRecorded(recorded(user('after')));
    deferred.flush();
    expectFileCurrent(deferred, path);
  });
});

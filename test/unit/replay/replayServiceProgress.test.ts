import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createReplayService, defaultDemoSessionsDir, type ReplayProgressUpdate } from '../../../src/replay';
import { SessionBuilder, tempDir } from './sessionBuilder';

/** sess-1: "one", then an abandoned branch ("abandoned"), then "two" continuing from "one"'s answer. */
async function branchedSession(): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder().turn('one');
  const forkPoint = b.entries[b.entries.length - 1].id;
  b.turn('abandoned');
  b.turn('two');
  const two = b.entries.find((e) => e.type === 'message' && e.message.role === 'user' && e.message.content === 'two')!;
  (two as { parentId: string | null }).parentId = forkPoint;
  await b.write(dir);
  return join(dir, 'sess-1.jsonl');
}

describe('replay service progress', () => {
  it('plans lanes × turns of the active branch, not every user message of the file', async () => {
    const service = createReplayService();
    const updates: ReplayProgressUpdate[] = [];
    const { replayId } = await service.start(
      { sessionPath: await branchedSession(), lanes: ['legacy', 'legacy?label=b'], window: 64000 },
      (u) => updates.push(u),
    );
    expect(service.get(replayId)).toMatchObject({ status: 'running', total: 4 });
    const done = await service.wait(replayId);
    expect(done).toMatchObject({ status: 'done', done: 4, total: 4 });
    expect(updates.map((u) => u.total)).toEqual([2, 2, 2, 2]);
    expect(done.recording!.turns.legacy.map((t) => t.turn)).toEqual([0, 1]);
  });

  it('the short demo (12 turns on its active branch, 13 user messages in the file) plans 24 lane-turns for 2 lanes', async () => {
    const demo = defaultDemoSessionsDir()!;
    const file = join(demo, 'agents', 'main', 'sessions', 'db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');
    const service = createReplayService();
    const updates: ReplayProgressUpdate[] = [];
    const { replayId } = await service.start(
      { sessionPath: file, lanes: ['legacy', 'legacy?label=b'], window: 200000 },
      (u) => updates.push(u),
    );
    expect(service.get(replayId).total).toBe(24);
    const done = await service.wait(replayId);
    expect(done).toMatchObject({ status: 'done', done: 24, total: 24 });
    expect(new Set(updates.map((u) => u.total))).toEqual(new Set([12]));
    expect(updates.filter((u) => u.parentLane === undefined)).toHaveLength(24);
  });

  it('subagent child lanes report their own totals and are not counted in done/total', async () => {
    const demo = defaultDemoSessionsDir()!;
    const file = join(demo, 'agents', 'main', 'sessions', '99b88506-a0d8-443e-bd84-2df2f90f0a3a.jsonl');
    const service = createReplayService();
    const updates: ReplayProgressUpdate[] = [];
    const { replayId } = await service.start({ sessionPath: file, lanes: ['legacy'], window: 200000 }, (u) =>
      updates.push(u),
    );
    const done = await service.wait(replayId);
    const rec = done.recording!;
    const rootTurns = rec.turns.legacy.length;
    expect(done).toMatchObject({ status: 'done', done: rootTurns, total: rootTurns });
    const children = rec.lanes.filter((l) => l.parentLane === 'legacy');
    expect(children.length).toBeGreaterThan(0);
    for (const child of children) {
      const childUpdates = updates.filter((u) => u.lane === child.id);
      expect(childUpdates.map((u) => u.parentLane)).toEqual(childUpdates.map(() => 'legacy'));
      expect(childUpdates.map((u) => u.total)).toEqual(childUpdates.map(() => child.turnCount));
      expect(childUpdates).toHaveLength(child.turnCount);
    }
  });
});

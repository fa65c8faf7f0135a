/**
 * Export of a long replay from the app's store (what the Replay view's Export buttons run), against the real bridge
 * table (main/handlers.ts): the JSON export of an 800-turn replay is over 2 MB, so it comes in bridge.piece pieces —
 * no answer over 1 MB — and what the store hands to the download is the whole export.
 */
import { join } from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { BRIDGE_MESSAGE_BYTES, importRecording } from '../../src/replay';
import type { InspectorClient } from '../../renderer/src/bridge/InspectorClient';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { SessionBuilder, tempDir } from '../unit/replay/sessionBuilder';
import { measuringClient, replayToEnd } from './measuringClient';

async function finishedReplay(client: InspectorClient, turns: number): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < turns; i++) b.turn(`question ${i}: ${'words of the prompt '.repeat(12)}`);
  await b.write(dir);
  return replayToEnd(client, join(dir, 'sess-1.jsonl'));
}

beforeEach(() => resetReplayStore());

it('exports a long replay read in pieces under 1 MB, whole in what it downloads', async () => {
  const { client, answers } = measuringClient();
  const replayId = await finishedReplay(client, 800);
  useReplayStore.setState({ recordingReplayId: replayId, recordingTitle: 'long' });
  answers.length = 0;

  const content = await useReplayStore.getState().exportRecording(client, 'json');

  expect(answers[0]!.method).toBe('replay.export');
  expect(answers.slice(1).every((a) => a.method === 'bridge.piece') && answers.length > 3).toBe(true);
  expect(Math.max(...answers.map((a) => a.bytes))).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
  expect(Buffer.byteLength(content!)).toBeGreaterThan(2 * BRIDGE_MESSAGE_BYTES);
  const recording = importRecording(content!);
  expect(recording.turns.legacy).toHaveLength(800);
  expect(recording.turns.legacy!.at(-1)!.turn).toBe(799);
  expect(useReplayStore.getState()).toMatchObject({ exporting: null, exportError: null });
}, 120_000);

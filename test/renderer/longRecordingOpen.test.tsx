/**
 * Opening a long recording kept in the recent list, and a long session's row of a batch, against the real bridge
 * tables (main/handlers.ts): each recording is too large for one bridge message, so the app reads it page by page
 * — no answer over 1 MB — and the Replay view shows the whole recording.
 */
import { act, render, screen } from '@testing-library/react';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { BRIDGE_MESSAGE_BYTES, importRecording } from '../../src/replay';
import type { Recording } from '../../src/contract/recording';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { resetAppStore } from '../../renderer/src/store/appStore';
import { useBatchStore } from '../../renderer/src/store/batchStore';
import { resetRecentRecordingsStore, useRecentRecordingsStore } from '../../renderer/src/store/recentRecordingsStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore } from '../../renderer/src/store/selectionStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { SessionBuilder, tempDir } from '../unit/replay/sessionBuilder';
import { exportedJson, measuringClient } from './measuringClient';

const TURNS = 260;

const { client, answers } = measuringClient();
let sessionDir = '';
let configDir = '';
let replayId = '';
let whole: Recording;
const savedConfigDir = process.env.CONTEXTSCOPE_CONFIG_DIR;

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'cs-long-open-'));
  process.env.CONTEXTSCOPE_CONFIG_DIR = configDir;
  sessionDir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < TURNS; i++) b.turn(`question ${i}: ${'words of the prompt '.repeat(12)}`);
  await b.write(sessionDir);
  ({ replayId } = await client.call('replay.start', {
    sessionPath: join(sessionDir, 'sess-1.jsonl'),
    lanes: ['legacy'],
    window: 2_000_000,
  }));
  while ((await client.call('replay.get', { replayId })).status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  whole = importRecording(await exportedJson(client, replayId));
}, 120_000);
afterAll(() => {
  if (savedConfigDir === undefined) delete process.env.CONTEXTSCOPE_CONFIG_DIR;
  else process.env.CONTEXTSCOPE_CONFIG_DIR = savedConfigDir;
  rmSync(configDir, { recursive: true, force: true });
});
beforeEach(() => {
  resetAppStore();
  resetReplayStore();
  resetSelectionStore();
  resetRecentRecordingsStore();
  useBatchStore.getState().reset();
});

/** `value` without the wall-clock timings of engine calls (two runs of the same replay differ only in those). */
function withoutTimings(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (key, v: unknown) => (key === 'durationMs' || key === 'startedAtMs' ? undefined : v)),
  );
}

function renderReplayView() {
  render(
    <ClientContext.Provider value={client}>
      <ReplayView />
    </ClientContext.Provider>,
  );
}

/** The Replay view shows a turn of all 260 ("Turn 1 of 260"): the whole recording is in. */
async function showsAllTurns() {
  const heading = await screen.findByText(
    (_, el) => el?.tagName === 'H2' && new RegExp(`^Turn \\d+ of ${TURNS}`).test(el.textContent ?? ''),
  );
  expect(heading).toBeTruthy();
}

it('opening a long recent recording shows the whole recording, read in pages under 1 MB', async () => {
  const entry = await client.call('recordings.save', { replayId, title: 'long chain' });
  answers.length = 0;
  renderReplayView();
  let opened = false;
  await act(async () => {
    opened = await useRecentRecordingsStore.getState().open(client, entry.id);
  });
  expect(useRecentRecordingsStore.getState().error).toBeNull();
  expect(opened).toBe(true);
  expect(useReplayStore.getState().recording).toEqual(whole);
  await showsAllTurns();
  const opens = answers.filter((a) => a.method === 'recordings.open');
  expect(opens.length).toBeGreaterThan(2); // the plain open said `paged`; the pages followed
  expect(Math.max(...answers.map((a) => a.bytes))).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
}, 60_000);

it('opening a long session of a batch shows its whole recording, read in pages under 1 MB', async () => {
  const { batchId } = await client.call('batch.start', {
    stateDir: sessionDir,
    lanes: ['legacy'],
    window: 2_000_000,
    workers: 1,
  });
  let batch = await client.call('batch.get', { batchId });
  while (batch.status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 50));
    batch = await client.call('batch.get', { batchId });
  }
  expect(batch.rows.map((row) => row.status)).toEqual(['done']);
  useBatchStore.setState({ batchId, batch });
  answers.length = 0;
  renderReplayView();
  await act(async () => {
    await useBatchStore.getState().open(client, 0);
  });
  expect(useBatchStore.getState().error).toBeNull();
  const recording = useReplayStore.getState().recording!;
  // the same session through the same lane: the turns and messages the single replay recorded (but for timings)
  expect(withoutTimings(recording.turns)).toEqual(withoutTimings(whole.turns));
  expect(Object.values(recording.turns)[0]).toHaveLength(TURNS);
  expect(recording.messages).toEqual(whole.messages);
  await showsAllTurns();
  const reads = answers.filter((a) => a.method === 'batch.recording');
  expect(reads.length).toBeGreaterThan(2);
  expect(Math.max(...answers.map((a) => a.bytes))).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
}, 120_000);

/**
 * A deep link (a reload, a link opened later) into a long replay the runtime still holds, against the real bridge
 * table (main/handlers.ts): the recording is too large for one bridge message, so the app reads it page by page —
 * no answer over 1 MB — and the Replay view shows the linked turn of the whole recording.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BRIDGE_MESSAGE_BYTES, importRecording } from '../../src/replay';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import type { InspectorClient } from '../../renderer/src/bridge/InspectorClient';
import { registerRecordingOpener, startDeepLinks } from '../../renderer/src/router/deepLinks';
import { resetAppStore } from '../../renderer/src/store/appStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { SessionBuilder, tempDir } from '../unit/replay/sessionBuilder';
import { exportedJson, measuringClient, replayToEnd } from './measuringClient';

const TURNS = 260;

async function finishedLongReplay(client: InspectorClient): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < TURNS; i++) b.turn(`question ${i}: ${'words of the prompt '.repeat(12)}`);
  await b.write(dir);
  return replayToEnd(client, join(dir, 'sess-1.jsonl'));
}

let stop: () => void = () => {};
beforeEach(() => {
  resetAppStore();
  resetReplayStore();
  resetSelectionStore();
  registerRecordingOpener(null);
  window.history.replaceState(null, '', '/');
});
afterEach(() => stop());

it('a link into a long replay opens the whole recording at the linked turn, read in pages under 1 MB', async () => {
  const { client, answers } = measuringClient();
  const replayId = await finishedLongReplay(client);
  const whole = importRecording(await exportedJson(client, replayId));
  answers.length = 0;

  window.history.replaceState(null, '', `#/replay?recording=${replayId}&lane=legacy&turn=251`);
  render(
    <ClientContext.Provider value={client}>
      <ReplayView />
    </ClientContext.Provider>,
  );
  await act(async () => {
    stop = startDeepLinks(client);
  });
  await waitFor(() => expect(useReplayStore.getState().recordingReplayId).toBe(replayId), { timeout: 20_000 });
  expect(useReplayStore.getState().recording).toEqual(whole);
  await waitFor(() => expect(useSelectionStore.getState().turn).toBe(250));
  const heading = await screen.findByText(
    (_, el) => el?.tagName === 'H2' && /^Turn 251 of 260/.test(el.textContent ?? ''),
  );
  expect(heading).toBeTruthy();
  // the plain get said `paged`; the pages followed, none of them (nor anything else) over the bound
  const gets = answers.filter((a) => a.method === 'replay.get');
  expect(gets.length).toBeGreaterThan(2);
  expect(Math.max(...answers.map((a) => a.bytes))).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
}, 120_000);

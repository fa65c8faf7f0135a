import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReplayStreamResponse } from '../../src/bridge';
import { ClientContext } from '../../renderer/src/bridge/ClientContext';
import { laneChoices } from '../../renderer/src/model/laneChoices';
import { resetAppStore } from '../../renderer/src/store/appStore';
import { resetReplayStore, useReplayStore } from '../../renderer/src/store/replayStore';
import { resetSelectionStore, useSelectionStore } from '../../renderer/src/store/selectionStore';
import { ReplayView } from '../../renderer/src/views/ReplayView';
import { createFakeInspectorClient } from './fakeInspectorClient';
import { makeRecording } from './recordingFixture';

beforeEach(() => {
  resetAppStore();
  resetReplayStore();
  resetSelectionStore();
  useReplayStore.setState({ pollIntervalMs: 0 });
});

/** A runtime whose replay.stream answers the scripted pages in order; the second waits until `release()`. */
function scriptedRuntime(pages: ((request: { generation?: string; cursor?: number }) => ReplayStreamResponse)[]) {
  let next = 0;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const fake = createFakeInspectorClient({
    'replay.start': () => ({ replayId: 'r1' }),
    'replay.cancel': () => ({ cancelled: true }),
    'replay.stream': async (request) => {
      const index = next++;
      if (index >= 1) await gate;
      return pages[Math.min(index, pages.length - 1)]!(request);
    },
  });
  return { fake, release: () => release() };
}

/** the form's default lane (legacy) among the lanes it offers */
const legacyOnly = laneChoices([]);
const recording = makeRecording();
const { turns, messages, ...head } = recording;
const laneIds = recording.lanes.map((l) => l.id);
const base = { replayId: 'r1', elapsedMs: 2000, messages: {}, lanes: recording.lanes, more: false };

function livePage(turnCount: number, withHead: boolean): ReplayStreamResponse {
  const streamed = laneIds.flatMap((id) => turns[id]!.slice(0, turnCount));
  return {
    ...base,
    status: 'running',
    done: streamed.length,
    total: 6,
    generation: 'live',
    cursor: streamed.length,
    ...(withHead ? { head } : {}),
    turns: streamed,
    messages,
  };
}

describe('a streaming replay in the Replay view', () => {
  it('shows the first turns while the replay runs, and Cancel leaves the partial recording marked partial', async () => {
    const partialHead = { ...head, partial: { reason: 'cancelled' as const, done: 2, total: 6 } };
    const partialTurns = laneIds.flatMap((id) => turns[id]!.slice(0, 1));
    const runtime = scriptedRuntime([
      () => livePage(1, true),
      () => ({
        ...base,
        status: 'cancelled',
        done: 2,
        total: 6,
        generation: 'final',
        cursor: 2,
        head: partialHead,
        turns: partialTurns,
        messages,
      }),
    ]);
    render(
      <ClientContext.Provider value={runtime.fake.client}>
        <ReplayView />
      </ClientContext.Provider>,
    );
    const store = useReplayStore.getState();
    let started: Promise<unknown> = Promise.resolve();
    act(() => {
      started = store.requestStart(runtime.fake.client, { file: '/s/a.jsonl', title: 'a' }, legacyOnly);
    });
    // after the first page: one turn per lane is on screen, the replay still runs
    await waitFor(() => expect(useReplayStore.getState().recording?.turns[laneIds[0]!]).toHaveLength(1));
    const streaming = await screen.findByTestId('replay-streaming', {}, { timeout: 10_000 });
    expect(streaming.textContent).toContain('2 of 6 lane-turns');
    // two lane-turns say nothing yet about the pace of the rest: no rate, no time left (src/view/replayRate.ts)
    expect(streaming.textContent).not.toMatch(/turns\/s|left/);
    expect(useSelectionStore.getState().turn).toBe(0);
    // the header counts what has arrived, and the replay has no duration yet
    const meta = () => document.querySelector('.replay-view__meta')!.textContent!.replace(/\s+/g, ' ');
    expect(meta()).toContain('1 turn so far · 2 lanes');
    expect(meta()).not.toContain('replayed in');
    // the progress is on the header's line, in place of the export buttons (a line of its own cost a timeline row)
    expect(streaming.closest('.replay-view__header')).not.toBeNull();
    // what is shown is not the Recording yet: export waits
    expect(screen.queryByRole('button', { name: 'Export JSON' })).toBeNull();
    expect(await useReplayStore.getState().exportRecording(runtime.fake.client, 'json')).toBeNull();
    expect(runtime.fake.calls).not.toContain('replay.export');

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(runtime.fake.calls).toContain('replay.cancel'));
    runtime.release();
    await act(() => started);
    expect(useReplayStore.getState().run).toMatchObject({ status: 'cancelled', done: 2, total: 6 });
    expect(useReplayStore.getState().recording?.partial).toEqual({ reason: 'cancelled', done: 2, total: 6 });
    expect((await screen.findByTestId('replay-partial', {}, { timeout: 10_000 })).textContent).toContain(
      'cancelled after 2 of 6 lane-turns',
    );
    expect(screen.queryByTestId('replay-streaming')).toBeNull();
    expect(meta()).toMatch(/1 turn · 2 lanes · .* entries · replayed in /);
    expect((screen.getByRole('button', { name: 'Export JSON' }) as HTMLButtonElement).disabled).toBe(false);
  }, 30_000);
});

describe('the wait for the first turn', () => {
  it('asks for the first turn every 50 ms, not at the poll interval', async () => {
    vi.useFakeTimers();
    try {
      useReplayStore.setState({ pollIntervalMs: 1000 });
      const empty: ReplayStreamResponse = {
        ...base,
        status: 'running',
        done: 0,
        total: 6,
        generation: 'live',
        cursor: 0,
        turns: [],
        messages: {},
      };
      let calls = 0;
      const fake = createFakeInspectorClient({
        'replay.start': () => ({ replayId: 'r1' }),
        'replay.stream': () => (calls++ < 3 ? empty : calls === 4 ? livePage(1, true) : new Promise(() => undefined)),
      });
      void useReplayStore.getState().requestStart(fake.client, { file: '/s/a.jsonl', title: 'a' }, legacyOnly);
      // three pages with nothing yet, 50 ms apart: the first turn is there well before one poll interval; after it
      // the stream is asked at the poll interval again
      await vi.advanceTimersByTimeAsync(200);
      expect(calls).toBe(4);
      expect(useReplayStore.getState().recording?.turns[laneIds[0]!]).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('streamed pages on screen', () => {
  it('applies the pages read within one frame as one update: the store sees their last figures only', async () => {
    const pages = Array.from({ length: 10 }, (_, i): ReplayStreamResponse => ({
      ...livePage(1, i === 0),
      turns: i === 0 ? livePage(1, false).turns : [],
      done: 2 * (i + 1),
      total: 40,
      cursor: 2,
      more: i < 9,
    }));
    let next = 0;
    const fake = createFakeInspectorClient({
      'replay.start': () => ({ replayId: 'r1' }),
      // ten pages answered at once, then nothing more for now
      'replay.stream': () => (next < pages.length ? pages[next++]! : new Promise(() => undefined)),
    });
    const seen: number[] = [];
    const unsubscribe = useReplayStore.subscribe((state, before) => {
      if (state.run?.status === 'running' && state.run.done !== before.run?.done) seen.push(state.run.done);
    });
    try {
      void useReplayStore.getState().requestStart(fake.client, { file: '/s/a.jsonl', title: 'a' }, legacyOnly);
      await waitFor(() => expect(useReplayStore.getState().run?.done).toBe(20));
      expect(next).toBe(10);
      // one update for the ten pages, not one each (each update re-renders what shows the run)
      expect(seen).toEqual([20]);
      expect(useReplayStore.getState().recording?.turns[laneIds[0]!]).toHaveLength(1);
    } finally {
      unsubscribe();
    }
  });
});

/** The Replay view, with a replay started whose `replay.stream` calls get `answers` in turn (the last repeated). */
function startInReplayView(answers: (() => ReplayStreamResponse | Promise<ReplayStreamResponse>)[]) {
  let calls = 0;
  const fake = createFakeInspectorClient({
    'replay.start': () => ({ replayId: 'r1' }),
    'replay.cancel': () => ({ cancelled: true }),
    'replay.stream': () => answers[Math.min(calls++, answers.length - 1)]!(),
  });
  render(
    <ClientContext.Provider value={fake.client}>
      <ReplayView />
    </ClientContext.Provider>,
  );
  let started: Promise<unknown> = Promise.resolve();
  act(() => {
    started = useReplayStore.getState().requestStart(fake.client, { file: '/s/a.jsonl', title: 'a' }, legacyOnly);
  });
  return { started, streamCalls: () => calls };
}

describe('Cancel while the replay streams', () => {
  it('shows the replay stopped, with the turns streamed so far as the partial recording, before its final pages are read', async () => {
    const partial = { reason: 'cancelled' as const, done: 4, total: 6 };
    const final = { ...base, status: 'cancelled' as const, done: 4, total: 6, generation: 'final' as const };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const answers: (() => ReplayStreamResponse | Promise<ReplayStreamResponse>)[] = [
      () => livePage(1, true),
      // the runtime has stopped: the final generation starts from 0 with the head, its turns follow
      () => ({ ...final, cursor: 0, more: true, head: { ...head, partial }, turns: [], messages: {} }),
      async () => {
        await gate;
        return { ...final, cursor: 4, more: false, turns: laneIds.flatMap((id) => turns[id]!.slice(0, 2)), messages };
      },
    ];
    const { started, streamCalls } = startInReplayView(answers);
    // the final generation's turns are not read yet (the gate), and the replay already shows as stopped
    await waitFor(() => expect(useReplayStore.getState().run?.status).toBe('cancelled'));
    expect(streamCalls()).toBe(3);
    expect((await screen.findByTestId('replay-partial', {}, { timeout: 10_000 })).textContent).toContain(
      'cancelled after 4 of 6 lane-turns',
    );
    expect(screen.queryByTestId('replay-streaming')).toBeNull();
    expect(useReplayStore.getState().recording?.turns[laneIds[0]!]).toHaveLength(1);
    // once read, the runtime's partial recording replaces the streamed turns
    release();
    await act(() => started);
    expect(useReplayStore.getState().recording?.turns[laneIds[0]!]).toHaveLength(2);
    expect(useReplayStore.getState().recording?.partial).toEqual(partial);
    expect(useReplayStore.getState().run).toMatchObject({ status: 'cancelled', done: 4 });
  }, 30_000);
});

describe('Cancel confirmed by the runtime', () => {
  it('shows the replay stopped at once, while the runtime still streams its last turns and builds its partial recording', async () => {
    const partial = { reason: 'cancelled' as const, done: 4, total: 6 };
    const final = { ...base, status: 'cancelled' as const, done: 4, total: 6, generation: 'final' as const };
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // the store's run shows as cancelled (what cancelReplay does once replay.cancel answers)
    // every live page is due for a redraw (at most one a second otherwise): a live page shown after the stop would be
    let clock = 0;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => (clock += 2000));
    let unsubscribe = () => undefined as void;
    const cancelShown = new Promise<void>((resolve) => {
      unsubscribe = useReplayStore.subscribe((state) => state.run?.status === 'cancelled' && resolve());
    });
    const answers: (() => Promise<ReplayStreamResponse>)[] = [
      async () => livePage(1, true),
      // read after the confirmation: the runtime still says running, with the lane-turns it finished meanwhile
      async () => {
        await cancelShown;
        return livePage(2, false);
      },
      // until the runtime has built its partial recording: running, nothing new
      async () => {
        await gate;
        return {
          ...final,
          cursor: 4,
          more: false,
          head: { ...head, partial },
          turns: livePage(2, false).turns,
          messages,
        };
      },
    ];
    const { started, streamCalls } = startInReplayView(answers);
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }, { timeout: 10_000 }));
    // no page has said "cancelled": the runtime's answer to replay.cancel is enough
    expect((await screen.findByTestId('replay-partial', {}, { timeout: 10_000 })).textContent).toContain(
      'cancelled after',
    );
    expect(screen.queryByTestId('replay-streaming')).toBeNull();
    expect(useReplayStore.getState().run?.status).toBe('cancelled');
    // the live page read after it (two turns a lane) is not shown: what is shown stays the partial recording
    await waitFor(() => expect(streamCalls()).toBeGreaterThanOrEqual(3));
    expect(useReplayStore.getState().recording?.turns[laneIds[0]!]).toHaveLength(1);
    expect(useReplayStore.getState().recording?.partial?.reason).toBe('cancelled');
    // the runtime's partial recording replaces it once read
    release();
    await act(() => started);
    expect(useReplayStore.getState().recording?.turns[laneIds[0]!]).toHaveLength(2);
    expect(useReplayStore.getState().recording?.partial).toEqual(partial);
    expect(useReplayStore.getState().run).toMatchObject({ status: 'cancelled', done: 4 });
    unsubscribe();
    now.mockRestore();
  }, 30_000);
});

/**
 * replay.get within the bridge's message bound, over the real handler table: a long recording (a thin chain whose
 * context grows every turn, so the whole Recording is several MB) is `paged`, its pages are each under 1 MB, and
 * read from 0 they give the Recording back; page requests that cannot name a page get an error naming the field.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../main/handlers';
import { createBridgeDispatcher } from '../../../src/bridge';
import type { MessageRecord, Recording, TurnRecord } from '../../../src/contract/recording';
import { BRIDGE_MESSAGE_BYTES, importRecording, type RecordingPage } from '../../../src/replay';
import { recordingPage, type PageCache } from '../../../src/replay/stream/recordingPages';
import { addPageContent, readExport, readReplayPages } from './replayReads';
import { SessionBuilder, tempDir } from './sessionBuilder';

const TURNS = 260;

async function thinChain(turns: number): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < turns; i++) b.turn(`question ${i}: ${'words of the prompt '.repeat(12)}`);
  await b.write(dir);
  return join(dir, 'sess-1.jsonl');
}

type Dispatcher = ReturnType<typeof createBridgeDispatcher>;

/** Calls the dispatcher as a shell does and measures the answer as it goes on the wire (its JSON bytes). */
async function call(d: Dispatcher, method: string, params: unknown, sizes: number[]) {
  const outcome = await d.call(method, params);
  sizes.push(Buffer.byteLength(JSON.stringify({ id: 1, ...outcome })));
  return outcome;
}

async function finishedReplay(d: Dispatcher, sizes: number[]): Promise<string> {
  const sessionPath = await thinChain(TURNS);
  const started = await call(d, 'replay.start', { sessionPath, lanes: ['legacy'], window: 2_000_000 }, sizes);
  if (!started.ok) throw new Error(started.error.message);
  const { replayId } = started.result as { replayId: string };
  for (;;) {
    const got = await call(d, 'replay.get', { replayId }, sizes);
    if (!got.ok) throw new Error(got.error.message);
    if ((got.result as { status: string }).status !== 'running') return replayId;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('replay.get of a long recording', () => {
  const d = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), {
    validateResponses: true,
  });
  const sizes: number[] = [];
  let replayId = '';
  let whole: Recording;

  it('answers `paged` instead of the whole recording, and every page stays under 1 MB', async () => {
    replayId = await finishedReplay(d, sizes);
    whole = importRecording((await readExport(d, replayId, 'json')).text);
    // what replay.get sent before: the whole Recording in one message
    const before = Buffer.byteLength(JSON.stringify(whole));
    expect(before).toBeGreaterThan(3 * BRIDGE_MESSAGE_BYTES);

    const plain = await call(d, 'replay.get', { replayId }, sizes);
    expect(plain.ok && plain.result).toMatchObject({ status: 'done', paged: true, done: TURNS, total: TURNS });
    expect(plain.ok && 'recording' in (plain.result as object)).toBe(false);

    const read = await readReplayPages(d, replayId, sizes);
    expect(read.pages.length).toBeGreaterThan(1);
    expect(read.pages.map((p) => p.from)).toEqual([0, ...read.pages.slice(0, -1).map((p) => p.next)]);
    expect(read.pages.filter((p) => p.head)).toHaveLength(1);
    expect(read.recording).toEqual(whole);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    console.log(
      `${TURNS} turns: whole recording ${before} bytes; ${read.pages.length} pages, largest message ${Math.max(...sizes)} bytes`,
    );
  }, 120_000);

  it('pages as many turns as count asks for, and a lane slice page by page', async () => {
    const counted = await d.call('replay.get', { replayId, from: 10, count: 7 });
    const page = (counted.ok && (counted.result as { page: RecordingPage }).page) as RecordingPage;
    expect(page).toMatchObject({ from: 10, next: 17, total: TURNS, more: true });
    expect(page.turns.map((t) => t.turn)).toEqual([10, 11, 12, 13, 14, 15, 16]);
    expect(page.head).toBeUndefined();
    const sliced = await d.call('replay.get', { replayId, lane: 'legacy', fromTurn: 250, from: 0 });
    const slicePage = (sliced.ok && (sliced.result as { page: RecordingPage }).page) as RecordingPage;
    expect(slicePage).toMatchObject({ from: 0, next: 10, total: 10, more: false });
    expect(slicePage.turns[0]).toEqual(whole.turns.legacy![250]);
  });

  it('refuses a page request that names no page, saying which field and why', async () => {
    const refused = async (params: Record<string, unknown>) => {
      const outcome = await d.call('replay.get', { replayId, ...params });
      if (outcome.ok) throw new Error(`accepted ${JSON.stringify(params)}`);
      return outcome.error;
    };
    expect(await refused({ from: TURNS + 1 })).toMatchObject({
      code: 'invalid_params',
      path: '/from',
      message: `from ${TURNS + 1} is outside the recording: it has ${TURNS} turns, so a page starts at 0 to ${TURNS}.`,
    });
    expect(await refused({ count: 5 })).toMatchObject({ code: 'invalid_params', path: '/count' });
    expect((await refused({ count: 5 })).message).toMatch(/together with from/);
    for (const bad of [{ from: -1 }, { from: 1.5 }, { from: '0' }, { from: 0, count: 0 }, { from: 0, count: 20_000 }]) {
      const error = await refused(bad);
      expect(error.code).toBe('invalid_params');
      expect(error.path).toBe(`/${Object.keys(bad).at(-1)}`);
    }
    // the last page is empty and says so
    const end = await d.call('replay.get', { replayId, from: TURNS });
    expect(end.ok && (end.result as { page: RecordingPage }).page).toMatchObject({ turns: [], more: false });
  });

  it('in live mode, says which pass a page belongs to (a new pass means reading again from 0)', async () => {
    const sessionPath = await thinChain(TURNS);
    const started = await d.call('replay.start', { sessionPath, lanes: ['legacy'], window: 2_000_000, follow: true });
    const { replayId: live } = (started.ok && started.result) as { replayId: string };
    let snapshot: { following?: boolean; passes?: number; paged?: boolean } = {};
    while (!snapshot.passes) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const got = await d.call('replay.get', { replayId: live });
      snapshot = (got.ok && got.result) as typeof snapshot;
    }
    expect(snapshot).toMatchObject({ following: true, passes: 1, paged: true });
    const first = await d.call('replay.get', { replayId: live, from: 0, count: 3 });
    expect(first.ok && (first.result as { page: RecordingPage }).page).toMatchObject({ from: 0, next: 3, pass: 1 });
    await d.call('replay.cancel', { replayId: live });
  }, 60_000);

  it('sends a head too large for a page (a session of 60,000 message keys) as pieces of its text first', () => {
    const keys = Array.from({ length: 60_000 }, (_, i) => `message-key-of-a-long-session-${i}`);
    const large: Recording = { ...whole, session: { ...whole.session, messageKeys: keys } };
    const cache: PageCache = {};
    let text = '';
    let head: unknown;
    const turns: Record<string, TurnRecord[]> = {};
    const messages: Record<string, MessageRecord> = {};
    const bytes: number[] = [];
    for (let from = 0; ;) {
      const page = recordingPage(cache, large, { from });
      bytes.push(Buffer.byteLength(JSON.stringify(page)));
      text += page.headText ?? '';
      head ??= page.head;
      addPageContent(page, turns, messages);
      if (!page.more) break;
      from = page.next;
    }
    expect(head).toBeUndefined();
    expect(bytes.length).toBeGreaterThan(3);
    expect(Math.max(...bytes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    expect({ ...(JSON.parse(text) as object), turns, messages }).toEqual(large);
  });
});

/**
 * recordings.open, recordings.import and batch.recording within the bridge's message bound, over the real handler
 * tables: a long recording (a thin chain whose context grows every turn, several MB whole) is answered `paged`, its
 * pages (replay.get's format) each stay under 1 MB, and read from 0 they give the Recording back; page requests
 * that cannot name a page get an error naming the field.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBatchHandlers } from '../../main/batchHandlers';
import { createHandlers } from '../../main/handlers';
import { batchMethods, createBridgeDispatcher, createDispatcherFor } from '../../src/bridge';
import type { Recording, TurnRecord } from '../../src/contract/recording';
import { BRIDGE_MESSAGE_BYTES, exportRecordingJson, type RecordingPage } from '../../src/replay';
import { createBatchService } from '../../src/replay/batch';
import { createPagedRecordings } from '../../src/replay/stream/pagedRecordings';
import { readRecordingPages } from '../unit/replay/replayReads';
import { SessionBuilder, tempDir } from '../unit/replay/sessionBuilder';

const TURNS = 260;
type Dispatcher = Pick<ReturnType<typeof createBridgeDispatcher>, 'call'>;
type Outcome = Awaited<ReturnType<Dispatcher['call']>>;

/** Calls the dispatcher as a shell does and measures the answer as it goes on the wire (its JSON bytes). */
async function call(d: Dispatcher, method: string, params: unknown, sizes: number[]): Promise<any> {
  const outcome: Outcome = await d.call(method, params);
  sizes.push(Buffer.byteLength(JSON.stringify({ id: 1, ...outcome })));
  if (!outcome.ok) throw new Error(`${method}: ${outcome.error.message}`);
  return outcome.result;
}

/** readRecordingPages, and its pages follow on from each other. */
async function readPages(d: Dispatcher, method: string, params: object, sizes: number[]) {
  const read = await readRecordingPages(d, method, params, sizes);
  expect(read.pages.map((p) => p.from)).toEqual([0, ...read.pages.slice(0, -1).map((p) => p.next)]);
  return read;
}

async function refused(d: Dispatcher, method: string, params: unknown) {
  const outcome = await d.call(method, params);
  if (outcome.ok) throw new Error(`${method} accepted ${JSON.stringify(params)}`);
  return outcome.error;
}

/** The page requests that name no page, each with the field it must name. */
const BAD_PAGES: [Record<string, unknown>, string][] = [
  [{ from: TURNS + 1 }, '/from'],
  [{ count: 5 }, '/count'],
  [{ from: -1 }, '/from'],
  [{ from: 1.5 }, '/from'],
  [{ from: '0' }, '/from'],
  [{ from: 0, count: 0 }, '/count'],
  [{ from: 0, count: 20_000 }, '/count'],
];

let sessionDir = '';
/** the long recording as replay.get gives it (read by the first test) */
let whole: Recording;
let configDir = '';
const savedConfigDir = process.env.CONTEXTSCOPE_CONFIG_DIR;
beforeAll(async () => {
  sessionDir = tempDir();
  const b = new SessionBuilder();
  for (let i = 0; i < TURNS; i++) b.turn(`question ${i}: ${'words of the prompt '.repeat(12)}`);
  await b.write(sessionDir);
  configDir = mkdtempSync(join(tmpdir(), 'cs-paged-config-'));
  process.env.CONTEXTSCOPE_CONFIG_DIR = configDir;
});
afterAll(() => {
  if (savedConfigDir === undefined) delete process.env.CONTEXTSCOPE_CONFIG_DIR;
  else process.env.CONTEXTSCOPE_CONFIG_DIR = savedConfigDir;
  rmSync(configDir, { recursive: true, force: true });
});

describe('recordings.open and recordings.import of a long recording', () => {
  const d = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), {
    validateResponses: true,
  });
  let id = '';

  it('answers `paged`, and its pages (each under 1 MB) give the recording back', async () => {
    const sizes: number[] = [];
    const { replayId } = await call(
      d,
      'replay.start',
      { sessionPath: join(sessionDir, 'sess-1.jsonl'), lanes: ['legacy'], window: 2_000_000 },
      sizes,
    );
    let snapshot = await call(d, 'replay.get', { replayId }, sizes);
    while (snapshot.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      snapshot = await call(d, 'replay.get', { replayId }, sizes);
    }
    whole = (await readPages(d, 'replay.get', { replayId }, sizes)).recording;
    const entry = await call(d, 'recordings.save', { replayId, title: 'long' }, sizes);
    id = entry.id;

    const opened = await call(d, 'recordings.open', { id }, sizes);
    expect(opened).toEqual({ entry: { ...entry, openedAt: expect.any(Number) }, paged: true });
    const read = await readPages(d, 'recordings.open', { id }, sizes);
    expect(read.pages.length).toBeGreaterThan(1);
    expect(read.recording).toEqual(whole);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    // what recordings.open sent before: the entry and the whole Recording in one message
    const before = Buffer.byteLength(JSON.stringify({ id: 1, ok: true, result: { entry, recording: whole } }));
    expect(before).toBeGreaterThan(3 * BRIDGE_MESSAGE_BYTES);
    console.log(`recordings.open: ${before} bytes in one message before; largest now ${Math.max(...sizes)} bytes`);
  }, 120_000);

  it('imports a long file as `paged`, read through recordings.open from the reading kept', async () => {
    const sizes: number[] = [];
    const content = exportRecordingJson(whole);
    const imported = await call(d, 'recordings.import', { fileName: 'long.recording.json', content }, sizes);
    expect(imported).toEqual({ entry: expect.objectContaining({ origin: 'file', title: 'long' }), paged: true });
    const read = await readPages(d, 'recordings.open', { id: imported.entry.id }, sizes);
    expect(read.recording).toEqual(whole);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    const before = Buffer.byteLength(
      JSON.stringify({ id: 1, ok: true, result: { entry: imported.entry, recording: whole } }),
    );
    console.log(`recordings.import: ${before} bytes in one message before; largest now ${Math.max(...sizes)} bytes`);
  });

  it('pages as many turns as count asks for, and refuses a page request naming the field', async () => {
    const counted = await call(d, 'recordings.open', { id, from: 10, count: 7 }, []);
    expect(counted.page).toMatchObject({ from: 10, next: 17, total: TURNS, more: true });
    expect(counted.page.turns.map((t: TurnRecord) => t.turn)).toEqual([10, 11, 12, 13, 14, 15, 16]);
    for (const [bad, path] of BAD_PAGES) {
      expect(await refused(d, 'recordings.open', { id, ...bad }), JSON.stringify(bad)).toMatchObject({
        code: 'invalid_params',
        path,
      });
    }
    expect((await refused(d, 'recordings.open', { id, from: TURNS + 1 })).message).toBe(
      `from ${TURNS + 1} is outside the recording: it has ${TURNS} turns, so a page starts at 0 to ${TURNS}.`,
    );
    expect(await refused(d, 'recordings.open', { id, from: 0, extra: 1 })).toMatchObject({ code: 'invalid_params' });
    expect(await refused(d, 'recordings.open', { id: 'nope', from: 0 })).toMatchObject({
      code: 'not_found',
      path: '/id',
    });
  });
});

describe('batch.recording of a long session', () => {
  const service = createBatchService();
  const d = createDispatcherFor(batchMethods, createBatchHandlers({ service }), { validateResponses: true });

  it('answers `paged`, and its pages (each under 1 MB) give the row’s recording back', async () => {
    const sizes: number[] = [];
    const { batchId } = await call(
      d,
      'batch.start',
      { stateDir: sessionDir, lanes: ['legacy'], window: 2_000_000, workers: 1 },
      sizes,
    );
    let got = await call(d, 'batch.get', { batchId }, sizes);
    while (got.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50)); // the pool's messages arrive as macrotasks
      got = await call(d, 'batch.get', { batchId }, sizes);
    }
    expect(got.rows.map((row: { status: string }) => row.status)).toEqual(['done']);
    const original = service.recording(batchId, 0);
    expect(Object.values(original.turns)[0]).toHaveLength(TURNS);

    expect(await call(d, 'batch.recording', { batchId, index: 0 }, sizes)).toEqual({ paged: true });
    const read = await readPages(d, 'batch.recording', { batchId, index: 0 }, sizes);
    expect(read.pages.length).toBeGreaterThan(1);
    expect(read.recording).toEqual(original);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(BRIDGE_MESSAGE_BYTES);
    const before = Buffer.byteLength(JSON.stringify({ id: 1, ok: true, result: original }));
    expect(before).toBeGreaterThan(3 * BRIDGE_MESSAGE_BYTES);
    console.log(`batch.recording: ${before} bytes in one message before; largest now ${Math.max(...sizes)} bytes`);

    for (const [bad, path] of BAD_PAGES) {
      expect(await refused(d, 'batch.recording', { batchId, index: 0, ...bad }), JSON.stringify(bad)).toMatchObject({
        code: 'invalid_params',
        path,
      });
    }
  }, 120_000);
});

describe('the readings kept between pages', () => {
  it('keeps a reading until its last page is read, and only the latest few (least recently read go first)', () => {
    let loads = 0;
    const load = () => (loads++, whole);
    const pages = createPagedRecordings(2);
    expect(pages.answer('a', load, {})).toEqual({ paged: true });
    expect(pages.answer('a', load, { from: 0, count: 1 })).toMatchObject({ page: { from: 0, next: 1, more: true } });
    expect(loads).toBe(1); // the page came from the reading kept
    pages.answer('b', load, {});
    pages.answer('c', load, {});
    expect(pages.keys()).toEqual(['b', 'c']);
    expect(pages.answer('a', load, { from: 1, count: 1 })).toMatchObject({ page: { from: 1, next: 2 } });
    expect(loads).toBe(4); // `a` was pushed out: loaded again
    expect(pages.keys()).toEqual(['c', 'a']);
    for (let from = 0; ;) {
      const { page } = pages.answer('c', load, { from }) as { page: RecordingPage };
      if (!page.more) break;
      from = page.next;
    }
    expect(pages.keys()).toEqual(['a']);
  });
});

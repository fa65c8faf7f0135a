/**
 * A real batch: generated JSONL and SQLite sessions (and one file that is not a session) in one state dir,
 * replayed through the bundled recent-window plugin on two worker threads, against the legacy baseline.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { importRecording, type Recording } from '../../../../src/replay';
import {
  batchTotals,
  CANCELLED_BEFORE_START,
  createBatchService,
  formatBatchTable,
  runBatch,
  runBatchJob,
  summarizeRecording,
  type BatchRequest,
  type BatchResult,
} from '../../../../src/replay/batch';
import { tempDir } from '../sessionBuilder';
import { BATCH_WINDOW, writeBatchStateDir, type BatchStateDir } from './batchStateDir';

const LANE = 'plugin:recent-window';

let dir: BatchStateDir;
let outDir: string;
let request: BatchRequest;
let result: BatchResult;
const seen: number[] = [];

beforeAll(async () => {
  dir = await writeBatchStateDir({ jsonl: 2, sqlite: 1, broken: true });
  outDir = join(tempDir(), 'recordings');
  request = {
    stateDir: dir.stateDir,
    lanes: [LANE],
    window: BATCH_WINDOW,
    failOn: ['warning'],
    plugins: { allowExecute: true },
  };
  result = await runBatch(request, { workers: 2, outDir, onRow: (row) => seen.push(row.index) });
}, 120_000);

function tiktokenSum(recording: Recording, laneId: string): number {
  return (recording.turns[laneId] ?? []).reduce((sum, t) => sum + t.totals.tiktokenTokens, 0);
}

describe('runBatch over a state dir', () => {
  it('gives every session a row: the good ones done, the unreadable one failed with why', () => {
    expect(result.rows).toHaveLength(4);
    expect([...seen].sort()).toEqual([0, 1, 2, 3]);
    expect(result.workers).toBe(2);
    const failed = result.rows.filter((r) => r.status === 'failed');
    expect(failed.map((r) => r.file)).toEqual([dir.brokenFile]);
    expect(failed[0]!.error).toMatch(/broken-session\.jsonl/);
    const done = result.rows.filter((r) => r.status === 'done');
    expect(done.map((r) => r.sessionId).sort()).toEqual([...dir.sessionIds].sort());
    expect(done.find((r) => r.storage === 'sqlite')?.key).toBe('agent:ops:q0');
    expect(result.totals).toMatchObject({ sessions: 4, done: 3, failed: 1 });
  });

  it('writes one re-importable Recording per session, and its figures are the row', () => {
    for (const row of result.rows.filter((r) => r.status === 'done')) {
      expect(row.recordingFile).toBe(join(outDir, `${row.sessionId}.recording.json`));
      const recording = importRecording(readFileSync(row.recordingFile!, 'utf8'));
      expect(recording.session.sessionId).toBe(row.sessionId);
      expect(row.turns).toBe(recording.session.turnStarts.length);
      const [plugin, baseline] = row.lanes;
      expect(plugin).toMatchObject({ laneId: 'recent-window', baseline: false, added: false });
      expect(baseline).toMatchObject({ laneId: 'legacy', baseline: true, added: true });
      expect(plugin!.tokens).toBe(tiktokenSum(recording, 'recent-window'));
      expect(baseline!.tokens).toBe(tiktokenSum(recording, 'legacy'));
      expect(plugin!.savedTokens).toBe(baseline!.tokens - plugin!.tokens);
      const own = recording.findings.filter((f) => f.lane !== 'legacy' && ['warning', 'error'].includes(f.severity));
      expect(row.failing).toBe(own.length);
    }
    // the recent window keeps fewer messages than legacy on sessions longer than it
    expect(result.totals.lanes.find((l) => l.laneId === 'recent-window')!.savedTokens).toBeGreaterThan(0);
    expect(existsSync(join(outDir, 'broken-session.recording.json'))).toBe(false);
  });

  it('a worker replays a session as the same job run in this thread does', async () => {
    const row = result.rows.find((r) => r.status === 'done')!;
    const job = { ...row, index: row.index, recordingFile: join(tempDir(), 'here.json') };
    const here = await runBatchJob(job, request);
    expect(here.lanes).toEqual(row.lanes);
    expect(
      summarizeRecording(importRecording(readFileSync(job.recordingFile, 'utf8')), {
        baselineAdded: true,
        failOn: ['warning'],
      }).lanes,
    ).toEqual(row.lanes);
  });

  it('totals sum the finished rows per lane and the table prints each session and the total', () => {
    const totals = batchTotals(result.rows);
    const done = result.rows.filter((r) => r.status === 'done');
    const lane = totals.lanes.find((l) => l.laneId === 'recent-window')!;
    expect(lane.tokens).toBe(done.reduce((s, r) => s + r.lanes[0]!.tokens, 0));
    expect(lane.savedFraction).toBeCloseTo(lane.savedTokens! / done.reduce((s, r) => s + r.lanes[1]!.tokens, 0));
    expect(totals.turns).toBe(done.reduce((s, r) => s + r.turns!, 0));
    const table = formatBatchTable(result.rows, totals);
    for (const row of done) expect(table).toContain(row.key!);
    expect(table).toMatch(/broken-session\s+—\s+failed: /);
    expect(table).toContain('total (4 sessions, 1 failed)');
    expect(table).not.toMatch(/^\s*legacy\b/m); // the added baseline only measures; it is not a row
  });
});

describe('the batch service (bridge batch.*)', () => {
  it('runs a batch in the background, opens a finished row and refuses a failed one', async () => {
    const service = createBatchService();
    const { batchId, total } = await service.start({
      stateDir: dir.stateDir,
      lanes: ['legacy'],
      window: BATCH_WINDOW,
      workers: 1,
    });
    expect(total).toBe(4);
    const snapshot = await service.wait(batchId);
    expect(snapshot.status).toBe('done');
    expect(snapshot.rows.map((r) => r.status).sort()).toEqual(['done', 'done', 'done', 'failed']);
    const index = snapshot.rows.findIndex((r) => r.status === 'done');
    expect(service.recording(batchId, index).session.sessionId).toBe(snapshot.rows[index]!.sessionId);
    const failed = snapshot.rows.findIndex((r) => r.status === 'failed');
    expect(() => service.recording(batchId, failed)).toThrow(/has no recording/);
    // legacy alone is its own baseline: nothing saved, nothing added
    expect(snapshot.rows[index]!.lanes).toMatchObject([
      { laneId: 'legacy', baseline: true, added: false, savedTokens: 0 },
    ]);
  }, 120_000);

  it('cancel stops a batch: sessions not started yet are failed rows that say so', async () => {
    const service = createBatchService();
    const { batchId } = await service.start({ stateDir: dir.stateDir, lanes: ['legacy'], workers: 1 });
    expect(service.cancel(batchId)).toBe(true);
    const snapshot = await service.wait(batchId);
    expect(snapshot.status).toBe('cancelled');
    expect(snapshot.rows.filter((r) => r.error === CANCELLED_BEFORE_START).length).toBeGreaterThan(0);
    expect(service.cancel(batchId)).toBe(false);
  });

  it('refuses a lane spec a person got wrong before the batch gets an id', async () => {
    await expect(createBatchService().start({ stateDir: dir.stateDir, lanes: ['legacyy'] })).rejects.toThrow(/legacyy/);
  });
});

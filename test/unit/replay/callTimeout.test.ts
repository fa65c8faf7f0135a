/**
 * The per-call deadline of plugin lanes: `timeoutMs=` in a lane spec and `replay --call-timeout <ms>` (the
 * replay-wide default) decide when a slow engine's call is quarantined; the lane records the deadline it used.
 * The slow-engine fixture's assemble takes 2 s: past a 300 ms deadline it is quarantined, within a 20 s one not.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createReplayService,
  laneConfigFromSpec,
  parseLaneSpec,
  replaySession,
  type Recording,
} from '../../../src/replay';
import { serializeSessionEntries } from '../../../src/transcripts';
import { replayRequestFromCli } from '../../../src/cli/commands/replay';
import { SessionBuilder, tempDir } from './sessionBuilder';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/plugins/slow-engine');
const CLI_BASE = { lane: ['legacy'], window: '32000', subagents: true, progress: false };
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function replayWith(spec: string, callTimeoutMs?: number): Promise<Recording> {
  const workDir = tempDir('cs-call-timeout-');
  dirs.push(workDir);
  return replaySession({
    session: new SessionBuilder().turn('one').loaded(),
    lanes: [laneConfigFromSpec(spec, { contextWindow: 32_000 })],
    plugins: { allowExecute: true, ...(callTimeoutMs !== undefined ? { callTimeoutMs } : {}) },
    workDir,
  });
}

const quarantineReasons = (rec: Recording) =>
  Object.values(rec.turns)
    .flat()
    .flatMap((t) => t.events)
    .filter((e) => e.type === 'quarantine')
    .map((e) => (e.type === 'quarantine' ? `${e.operation}: ${e.reason}` : ''));

describe('per-call deadline for plugin lanes', () => {
  it('parses timeoutMs= on plugin lanes and refuses it on legacy lanes or when not a positive integer', () => {
    expect(parseLaneSpec('plugin:x?timeoutMs=120000')).toMatchObject({ kind: 'plugin', timeoutMs: 120000 });
    expect(laneConfigFromSpec('plugin:x?timeoutMs=500', { contextWindow: 1 }).engine).toMatchObject({
      callTimeoutMs: 500,
    });
    expect(() => parseLaneSpec('plugin:x?timeoutMs=0')).toThrow(
      'Invalid lane spec "plugin:x?timeoutMs=0": timeoutMs=0 must be a positive whole number of milliseconds.',
    );
    expect(() => parseLaneSpec('legacy?timeoutMs=5')).toThrow('unknown option "timeoutMs"');
  });

  it('replay --call-timeout sets the replay-wide deadline and refuses a non-number', () => {
    expect(replayRequestFromCli({ ...CLI_BASE, callTimeout: '90000' }).request).toMatchObject({
      callTimeoutMs: 90000,
    });
    expect(() => replayRequestFromCli({ ...CLI_BASE, callTimeout: 'soon' })).toThrow(
      '--call-timeout soon: give a positive whole number of milliseconds, e.g. --call-timeout 120000',
    );
  });

  it('quarantines the slow engine past a short lane deadline and records the deadline on the lane', async () => {
    const rec = await replayWith(`plugin:${FIXTURE}?timeoutMs=300`);
    expect(rec.lanes[0]!.callTimeoutMs).toBe(300);
    expect(quarantineReasons(rec)).toEqual(['assemble: timeout after 300 ms']);
  });

  it('lets the same engine answer within a longer deadline (the replay-wide one when the lane names none)', async () => {
    const rec = await replayWith(`plugin:${FIXTURE}`, 20_000);
    expect(rec.lanes[0]!.callTimeoutMs).toBe(20_000);
    expect(quarantineReasons(rec)).toEqual([]);
    expect(Object.values(rec.turns)[0]![0]!.engine.engineId).toBe('slow-engine');
  });
  it("the app's replay request takes callTimeoutMs (bridge replay.start) for every plugin lane", async () => {
    const dir = tempDir('cs-call-timeout-service-');
    dirs.push(dir);
    const b = new SessionBuilder().turn('one');
    const sessionPath = join(dir, `${b.header.id}.jsonl`);
    writeFileSync(sessionPath, serializeSessionEntries(b.header, b.entries));
    const service = createReplayService();
    const { replayId } = await service.start({
      sessionPath,
      lanes: [`plugin:${FIXTURE}`],
      window: 32_000,
      allowExecute: true,
      callTimeoutMs: 300,
    });
    const done = await service.wait(replayId);
    const rec = done.recording!;
    expect(rec.lanes[0]!.callTimeoutMs).toBe(300);
    expect(quarantineReasons(rec)).toEqual(['assemble: timeout after 300 ms']);
  });
});

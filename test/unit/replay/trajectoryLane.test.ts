/**
 * The recorded trajectory as ground truth: the fixture (test/fixtures/transcripts/trajectory, OpenClaw 2026.7.35's
 * file shapes; see its generate.mts) replayed through legacy gets a read-only recorded lane whose every turn the
 * legacy lane reproduces exactly, through all of the trajectory's bounds; a trajectory that recorded something
 * else is reported at the first differing message and field, and `replay --against-trajectory` exits 1.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli';
import { exportRecordingJson, importRecording, replaySession } from '../../../src/replay';
import {
  agentDatabasePath,
  loadSession,
  readSessionFile,
  readTrajectoryFile,
  writeAgentDatabase,
} from '../../../src/transcripts';
import { tempDir } from './sessionBuilder';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/transcripts/trajectory/state');
const SESSION_ID = '7f3c2a10-5b8e-4d21-9c44-2e6f1a9b0c35';
const SESSIONS = join(FIXTURE, 'agents/main/sessions');
const FILE = join(SESSIONS, `${SESSION_ID}.jsonl`);
const TRAJECTORY = join(SESSIONS, `${SESSION_ID}.trajectory.jsonl`);

const legacy = [{ engine: { kind: 'legacy' as const }, contextWindow: 200_000 }];

const run = runCli;

/** A copy of the fixture whose trajectory has one event rewritten. */
function tamperedCopy(runId: string, change: (messages: Record<string, unknown>[]) => void): string {
  const dir = tempDir();
  cpSync(FIXTURE, dir, { recursive: true });
  const file = join(dir, 'agents/main/sessions', `${SESSION_ID}.trajectory.jsonl`);
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  const edited = lines.map((line) => {
    const event = JSON.parse(line) as { type: string; runId: string; data: { messages: Record<string, unknown>[] } };
    if (event.type === 'context.compiled' && event.runId === runId) change(event.data.messages);
    return JSON.stringify(event);
  });
  writeFileSync(file, `${edited.join('\n')}\n`);
  return join(dir, 'agents/main/sessions', `${SESSION_ID}.jsonl`);
}

describe('the recorded lane (OpenClaw trajectory)', () => {
  it('is a read-only lane beside the replayed one, and legacy reproduces every recorded turn exactly', async () => {
    const recording = await replaySession({ session: FILE, lanes: legacy, transcriptFiles: 'none' });
    const recorded = recording.lanes.find((l) => l.source === 'trajectory')!;
    expect(recorded).toMatchObject({ id: 'recorded', recorded: { storage: 'jsonl', location: TRAJECTORY } });
    expect(recorded.contextWindow).toBe(200_000);
    const report = recording.trajectory!;
    expect(report).toMatchObject({ lane: 'recorded', against: 'legacy', contexts: 5, unaligned: 0, exact: 4 });
    expect(report.turns.map((t) => [t.verdict, t.recordedCount, t.truncated])).toEqual([
      ['exact', 0, false],
      ['exact', 4, true], // the 43,210-character tool result
      ['exact', 6, true], // the image (sha256) and the Bearer credential; two attempts, the last kept
      ['exact', 68, true], // 68 messages, 64 recorded
    ]);
    // recorded messages matching the replay are the same messages, so lanes align message by message
    const legacyTurn = recording.turns.legacy![2]!;
    const recordedTurn = recording.turns.recorded![2]!;
    expect(recordedTurn.assembled.map((a) => a.key)).toEqual(legacyTurn.assembled.map((a) => a.key));
    expect(recordedTurn.attempts).toBe(2);
    // the trajectory kept 64 of 68 messages: the rest comes from legacy, whose first 64 and count match, and says so
    const last = recording.turns.recorded![3]!;
    expect(last.assembled.map((a) => a.key)).toEqual(recording.turns.legacy![3]!.assembled.map((a) => a.key));
    expect(last.omitted.droppedCount).toBe(0);
    expect(last.events).toEqual([
      expect.objectContaining({
        type: 'warning',
        message: expect.stringContaining('kept the first 64 of 68 messages; messages 65–68 are shown from lane legacy'),
      }),
    ]);
    // the Recording with its recorded lane round-trips through the schema
    expect(importRecording(exportRecordingJson(recording)).trajectory).toEqual(report);
  });

  it('reports where a recorded context first differs: message index and field', async () => {
    const longer = tamperedCopy('run-3', (messages) => {
      const block = (messages[2]!.content as Record<string, unknown>[])[0]!;
      (block.text as { originalChars: number }).originalChars += 1;
    });
    const a = await replaySession({ session: longer, lanes: legacy, transcriptFiles: 'none' });
    expect(a.trajectory!.turns[2]).toMatchObject({
      verdict: 'differs',
      difference: { index: 2, field: 'content[0].text', recorded: '"(string of 43211 chars)"' },
    });
    expect(a.trajectory!.turns.filter((t) => t.verdict === 'exact')).toHaveLength(3);

    const usage = tamperedCopy('run-4', (messages) => {
      (messages[5]!.usage as { totalTokens: number }).totalTokens = 1;
    });
    const b = await replaySession({ session: usage, lanes: legacy, transcriptFiles: 'none' });
    expect(b.trajectory!.turns[3]!.difference).toEqual({
      index: 5,
      field: 'usage.totalTokens',
      recorded: '1',
      replayed: '12440',
    });
    // the recorded lane shows what was recorded: that message is its own, not the replayed one, and with the
    // recorded 64 no longer all legacy's, the 4 messages the trajectory cut stay unknown
    expect(b.turns.recorded![3]!.assembled[5]!.key).not.toBe(b.turns.legacy![3]!.assembled[5]!.key);
    expect(b.turns.recorded![3]!.assembled).toHaveLength(64);
    expect(b.turns.recorded![3]!.events[0]!.type === 'warning' && b.turns.recorded![3]!.events[0]!.message).toContain(
      'messages 65–68 are unknown (not dropped)',
    );
  });

  it('replay --against-trajectory prints the verdict per turn and exits 1 on a mismatch, 2 without a trajectory', async () => {
    const ok = await run(['replay', FILE, '--against-trajectory', '--no-progress']);
    expect(ok.code).toBe(0);
    expect(ok.out).toContain('Compared with lane legacy: 4 exact, 0 differ');
    expect(ok.out).toContain('turn 4: exact, 68 messages');

    const tampered = tamperedCopy('run-2', (messages) => {
      messages.pop();
    });
    const bad = await run(['replay', tampered, '--against-trajectory', '--no-progress']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('turn 2: DIFFERS at message 4, (message): recorded (absent), replayed 4 messages');

    const facts = await run(['session', FILE, '--json']);
    expect(JSON.parse(facts.out).trajectory).toEqual({ location: TRAJECTORY, events: 13, contexts: 5 });

    const dir = tempDir();
    cpSync(FILE, join(dir, 'plain.jsonl'));
    const none = await run(['replay', join(dir, 'plain.jsonl'), '--against-trajectory', '--no-progress']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('OpenClaw left no trajectory');
    expect((await run(['session', join(dir, 'plain.jsonl')])).out).toContain('Trajectory   none recorded');
  });

  it('on sessions real OpenClaw wrote (test/fixtures/openclaw-real): legacy reproduces plain turns exactly on both versions', async () => {
    for (const version of ['2026.7.35', '2026.9.6']) {
      const stateDir = resolve(import.meta.dirname, '../../fixtures/openclaw-real', version, 'plain-text');
      const session = 'agent:main:explicit:differential-session';
      const r = await run([
        'replay',
        '--state-dir',
        stateDir,
        '--session',
        session,
        '--against-trajectory',
        '--no-progress',
      ]);
      expect(r.code, `${version}: ${r.out}${r.err}`).toBe(0);
      expect(r.out).toContain(version === '2026.7.35' ? 'trajectory file ' : 'agent database ');
      expect(r.out).toContain('Compared with lane legacy: 3 exact, 0 differ');
    }
  });

  it('reads the trajectory rows of a SQLite session (OpenClaw 2026.8+) the same way', async () => {
    const dir = tempDir();
    const session = await readSessionFile(FILE, { mode: 'strict' });
    const { events } = await readTrajectoryFile(TRAJECTORY, SESSION_ID);
    writeAgentDatabase(agentDatabasePath(dir, 'main'), {
      agentId: 'main',
      createdAt: 0,
      sessions: [
        {
          sessionKey: 'agent:main:main',
          entry: { sessionId: SESSION_ID },
          updatedAt: 1,
          windows: [
            {
              header: session.header,
              entries: session.entries,
              createdAt: 0,
              updatedAt: 1,
              trajectory: events.map((e) => ({ runId: e.runId, event: e.event, createdAt: e.createdAt })),
            },
          ],
        },
      ],
    });
    const loaded = await loadSession({ stateDir: dir, session: 'agent:main:main' }, { mode: 'strict' });
    const recording = await replaySession({ session: loaded, lanes: legacy, transcriptFiles: 'none' });
    expect(recording.trajectory!.source).toEqual({ storage: 'sqlite', location: agentDatabasePath(dir, 'main') });
    expect(recording.trajectory!.turns.map((t) => t.verdict)).toEqual(['exact', 'exact', 'exact', 'exact']);
  });
});

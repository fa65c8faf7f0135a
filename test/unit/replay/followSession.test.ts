/**
 * Live mode: a session followed while another process writes it. Turns appended to a JSONL transcript by a real
 * child process show up pass by pass, and the last pass equals a one-off replay of the finished file; a SQLite
 * session held open and appended to in WAL mode by another process is followed by its seq.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Recording } from '../../../src/contract';
import { followSession, replaySession, sourceStamp } from '../../../src/replay';
import { generateSession, loadSession, writeGeneratedSessions } from '../../../src/transcripts';
import { startWriter, tmp } from '../transcripts/sqliteHelpers';
import { steppedAppender } from './appendInChild';

const lanes = [{ engine: { kind: 'legacy' as const }, contextWindow: 200_000 }];

function withoutTimings(recording: Recording): unknown {
  const copy = JSON.parse(JSON.stringify(recording)) as Recording;
  copy.createdAt = '';
  copy.stats.wallMs = 0;
  for (const turns of Object.values(copy.turns))
    for (const turn of turns) for (const call of turn.calls) Object.assign(call, { startedAtMs: 0, durationMs: 0 });
  return copy;
}

describe('following a session while it is written', () => {
  it('replays each JSONL turn as it is appended, ending with the recording of the finished file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-follow-'));
    const set = generateSession({ turns: 6, seed: 'follow', contextWindow: 32_000 });
    const written = await writeGeneratedSessions(set, dir);
    const source = written.files[0]!;
    const lines = readFileSync(source, 'utf8').trimEnd().split('\n');
    const userLines = lines.map((l, i) => (/"role":"user"/.test(l) ? i : -1)).filter((i) => i >= 0);
    // the header and the first two turns now; the other turns, one by one, from another process
    const live = join(dir, 'live.jsonl');
    writeFileSync(live, `${lines.slice(0, userLines[2]).join('\n')}\n`);
    const groups = userLines.slice(2).map((start, k) => lines.slice(start, userLines[k + 3] ?? lines.length));

    const fullTurns = (await replaySession({ session: source, lanes })).session.turnStarts.length;
    const controller = new AbortController();
    const turnsPerPass: number[] = [];
    let last: Recording | undefined;
    // the writer appends the next group once a pass has seen the one before (more messages than before it was
    // written), so every step shows however slow the machine is
    const writer = steppedAppender(live, groups);
    let seen = 0;
    let onPass: (() => void) | undefined;
    const following = followSession({
      input: live,
      replay: { lanes },
      intervalMs: 40,
      signal: controller.signal,
      onRecording: (recording) => {
        turnsPerPass.push(recording.session.turnStarts.length);
        seen = recording.session.messageKeys.length;
        last = recording;
        if (recording.session.turnStarts.length === fullTurns && writer.written === groups.length) controller.abort();
        onPass?.();
      },
    });
    const passAfter = async (messages: number) => {
      const deadline = Date.now() + 5_000;
      while (seen <= messages && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          onPass = resolve;
          setTimeout(resolve, 500);
        });
      }
    };
    await passAfter(-1);
    for (let written = 0; written < groups.length; written++) {
      const before = seen;
      await writer.next();
      await passAfter(before);
    }
    await writer.exited;
    // one more change notice after the last append, if the last pass already saw everything
    setTimeout(() => controller.abort(), 5_000);
    await following;

    expect(turnsPerPass[0]).toBeLessThan(fullTurns);
    expect(turnsPerPass.at(-1)).toBe(fullTurns);
    expect(new Set(turnsPerPass).size).toBeGreaterThan(2); // turns arrived over several passes
    for (let i = 1; i < turnsPerPass.length; i++) expect(turnsPerPass[i]).toBeGreaterThanOrEqual(turnsPerPass[i - 1]!);
    const oneOff = await replaySession({ session: live, lanes });
    expect(withoutTimings(last!)).toEqual(withoutTimings(oneOff));
  }, 60_000);

  it('follows a SQLite session by seq while another process holds the database in WAL mode and appends to it', async () => {
    const dir = tmp();
    const db = join(dir, 'agents/main/agent/openclaw-agent.sqlite');
    const set = generateSession({ turns: 3, seed: 'follow-sqlite', contextWindow: 32_000 });
    await writeGeneratedSessions(set, dir, { storage: 'sqlite' });
    const loaded = await loadSession({ stateDir: dir, session: 'agent:main:main' });
    const leaf = loaded.entries.at(-1)!.id;
    const controller = new AbortController();
    const entryCounts: number[] = [];
    let firstPass!: () => void;
    const firstPassDone = new Promise<void>((resolve) => (firstPass = resolve));
    const following = followSession({
      input: { stateDir: dir, session: 'agent:main:main' },
      replay: { lanes },
      intervalMs: 40,
      signal: controller.signal,
      onRecording: (recording) => {
        entryCounts.push(recording.session.entryCount);
        firstPass();
      },
    });
    await firstPassDone; // the writer starts once the session as generated has been replayed
    const stampBefore = sourceStamp([db, `${db}-wal`]);
    const writer = startWriter(db, loaded.header.id, leaf, { count: 6, delayMs: 150, checkpoint: 'never' });
    await writer.committed(6);
    // a pass takes longer on a loaded machine: wait for the pass that saw the last commit (bounded), then stop
    const expected = loaded.entries.length + 6;
    for (let waited = 0; entryCounts.at(-1) !== expected && waited < 20_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
    }
    controller.abort();
    await following;
    await writer.kill();
    expect(sourceStamp([db, `${db}-wal`])).not.toBe(stampBefore);
    expect(entryCounts[0]).toBe(loaded.entries.length);
    expect(entryCounts.at(-1)).toBe(loaded.entries.length + 6);
    expect(entryCounts.length).toBeGreaterThan(2);
  }, 60_000);
});

/**
 * Issue 34: one count, one definition. A session's turns and messages are src/view's sessionCounts wherever they
 * are shown — the Sessions list (`sessions.list`), what `contextscope generate` prints, the replayed Recording and
 * its HTML report — and a file that is no session lists with the replay's own refusal instead of as a healthy
 * 0-turn session.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSessionCountCache,
  listSessions,
  openReplaySession,
  renderHtmlReport,
  replaySession,
} from '../../../src/replay';
import { getActivePath, loadSession } from '../../../src/transcripts';
import type { SessionsReport } from '../../../src/cli/commands/sessions';
import { runCli } from './runCli';
import { tempDir } from './sessionBuilder';

describe('a session’s turns and messages (src/view sessionCounts)', () => {
  it('are the same in the Sessions list, in what `generate` printed, in the Recording and in its HTML report', async () => {
    const stateDir = tempDir();
    const generated = await runCli(['generate', '--turns', '40', '--seed', 'one-count', '--out', stateDir]);
    expect(generated.code).toBe(0);
    const [, printedTurns, printedMessages] = /\.jsonl: (\d+) turns, (\d+) messages/.exec(generated.out)!;

    const listed = (await listSessions(stateDir, { counts: createSessionCountCache() })).sessions;
    expect(listed).toHaveLength(1);
    const row = listed[0]!;
    expect(row.problem).toBeUndefined();

    // the session holds what the definitions tell apart: a side branch, a custom message and a branch summary
    const loaded = await loadSession(row.file, { mode: 'tolerant' });
    const active = getActivePath(loaded);
    const kinds = new Set(active.map((e) => e.type));
    expect([...kinds]).toEqual(expect.arrayContaining(['custom_message', 'branch_summary']));
    const messageEntries = (entries: readonly { type: string }[]) => entries.filter((e) => e.type === 'message').length;
    expect(messageEntries(loaded.entries)).toBeGreaterThan(messageEntries(active));

    const recording = await replaySession({
      session: row.file,
      transcriptFiles: 'none',
      recordedTrajectory: false,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 200_000 }],
    });
    const [, reportTurns, reportMessages] = /· (\d+) turns · (\d+) messages ·/.exec(renderHtmlReport(recording))!;
    const cli = (JSON.parse((await runCli(['sessions', '--state-dir', stateDir, '--json'])).out) as SessionsReport)
      .sessions[0]!;

    const figures = {
      list: [row.turns, row.messages],
      sessionsCommand: [cli.turns, cli.messages],
      generate: [Number(printedTurns), Number(printedMessages)],
      recording: [recording.session.turnStarts.length, recording.session.messageKeys.length],
      report: [Number(reportTurns), Number(reportMessages)],
    };
    expect(figures).toEqual({
      list: figures.recording,
      sessionsCommand: figures.recording,
      generate: figures.recording,
      recording: figures.recording,
      report: figures.recording,
    });
    expect(row.entries).toBe(recording.session.entryCount);
    expect(cli.entries).toBe(recording.session.entryCount);
  }, 60_000);

  it('a file that is no session lists with the replay’s refusal, and no counts', async () => {
    const stateDir = tempDir();
    await runCli(['generate', '--turns', '3', '--seed', 'garbage-row', '--out', stateDir]);
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    writeFileSync(join(sessions, 'garbage.jsonl'), 'this is not json\n{"broken": \n');
    writeFileSync(join(sessions, 'empty.jsonl'), '');

    const listed = (await listSessions(stateDir, { counts: createSessionCountCache() })).sessions;
    const byId = Object.fromEntries(listed.map((s) => [s.sessionId, s]));
    expect(byId.garbage).toMatchObject({
      problem:
        'garbage.jsonl is not an OpenClaw session transcript: none of its 2 line(s) is a session header or entry ' +
        '(2 problem(s); the first, line 1: first line is not a valid session header (not valid JSON: Unexpected token)).',
    });
    expect(byId.garbage).not.toHaveProperty('turns');
    expect(byId.empty!.problem).toMatch(/^empty\.jsonl is not an OpenClaw session transcript/);
    // the good session beside them keeps its counts
    const good = listed.find((s) => s.key === 'agent:main:main')!;
    expect(good).toMatchObject({ turns: 3 });
    expect(good.problem).toBeUndefined();

    // what Start would have said, in the same words (the list names the file, the replay its path)
    const refusal = await openReplaySession(byId.garbage!.file).then(
      () => 'opened',
      (error: Error) => error.message,
    );
    expect(refusal).toBe(`${sessions}/${byId.garbage!.problem}`);

    // `contextscope sessions` says the same instead of a 0-message row
    const cli = await runCli(['sessions', '--state-dir', stateDir, '--json']);
    const rows = Object.fromEntries(
      (JSON.parse(cli.out) as SessionsReport).sessions.map((s) => [s.sessionId, s] as const),
    );
    expect(rows.garbage).toMatchObject({ problem: byId.garbage!.problem, turns: null, messages: null, entries: null });
    expect(rows.empty!.problem).toBe(byId.empty!.problem);
    expect((await runCli(['sessions', '--state-dir', stateDir])).out).toContain(
      `cannot replay: ${byId.garbage!.problem}`,
    );
  });
});

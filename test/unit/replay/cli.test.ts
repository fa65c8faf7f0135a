import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createProgram, type CliHost } from '../../../src/cli';
import { importRecording, type Recording } from '../../../src/replay';
import { SessionBuilder, tempDir } from './sessionBuilder';

const DEMO = resolve(
  import.meta.dirname,
  '../../../resources/sessions/agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl',
);

function fakeHost() {
  const out: string[] = [];
  const err: string[] = [];
  const host: CliHost = {
    startServe: async () => ({ url: '', close: async () => {} }),
    waitForStop: () => new Promise(() => {}),
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  };
  return { host, out: () => out.join(''), err: () => err.join('') };
}

async function run(args: string[]) {
  const fake = fakeHost();
  const program = createProgram(fake.host).exitOverride();
  for (const command of program.commands) command.exitOverride();
  process.exitCode = undefined;
  await program.parseAsync(['node', 'contextscope', ...args]);
  const code = process.exitCode ?? 0;
  process.exitCode = undefined;
  return { ...fake, code };
}

async function sessionFile(): Promise<string> {
  const dir = tempDir();
  const b = new SessionBuilder().turn('one').turn('two').turn('three');
  await b.write(dir);
  return join(dir, 'sess-1.jsonl');
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('contextscope replay / compare', () => {
  it('replay --json writes a re-importable recording and stays quiet', async () => {
    const file = await sessionFile();
    const out = join(tempDir(), 'rec.json');
    const html = join(tempDir(), 'rep.html');
    const r = await run([
      'replay',
      file,
      '--lane',
      'legacy?window=32000',
      '--lane',
      'legacy?window=64000&label=wide',
      '--json',
      out,
      '--html',
      html,
    ]);
    expect(r.code).toBe(0);
    expect(r.out()).toBe('');
    const rec = importRecording(readFileSync(out, 'utf8'));
    expect(rec.lanes.map((l) => [l.id, l.contextWindow])).toEqual([
      ['legacy@32000', 32000],
      ['wide', 64000],
    ]);
    expect(rec.turns.wide).toHaveLength(3);
    expect(readFileSync(html, 'utf8')).toContain('<svg class="chart"');
  });

  it('replay prints the release and settings it used, then a lane summary, without --json', async () => {
    const r = await run(['replay', await sessionFile(), '--window', '32000', '--no-progress']);
    expect(r.code).toBe(0);
    // a JSONL v3 transcript outside a state dir: the 2026.7 line, OpenClaw's defaults except the window flag;
    // keepRecentTokens 20000 does not fit a 32000 window's 2026.7 prompt budget: one lane-level warning
    expect(r.out()).toBe(
      'OpenClaw 2026.7.35 (inferred from the session header (version 3: the JSONL era, the newest 2026.7 release)) · ' +
        'window 32000 (flag) · keepRecentTokens 20000 (version default) · reserve 20000 effective (version default)\n' +
        // the lane-level warning belongs to no turn: counted apart, as the Replay header counts it
        'Problems: no error or warning turns · 1 warning outside turns\n' +
        'legacy (legacy, window 32000, reserve 20000): 3 turns (3 ok), 0 compactions, 0 quarantines, no error or warning turns · 1 warning outside turns\n',
    );
  });

  it("replay takes the state dir's openclaw.json and the settings flags", async () => {
    const stateDir = tempDir();
    writeFileSync(
      join(stateDir, 'openclaw.json'),
      "{ agents: { defaults: { compaction: { keepRecentTokens: 6000 } } } } // the user's own\n",
    );
    const sessions = join(stateDir, 'agents', 'main', 'sessions');
    mkdirSync(sessions, { recursive: true });
    copyFileSync(await sessionFile(), join(sessions, 'sess.jsonl'));
    const r = await run(['replay', join(sessions, 'sess.jsonl'), '--reserve-tokens', '12000', '--no-progress']);
    expect(r.code).toBe(0);
    expect(r.out().split('\n')[0]).toBe(
      'OpenClaw 2026.7.35 (inferred from the session header (version 3: the JSONL era, the newest 2026.7 release)) · ' +
        'window 200000 (version default) · keepRecentTokens 6000 (openclaw.json) · reserve 20000 effective (flag) · ' +
        `settings read from ${join(stateDir, 'openclaw.json')}`,
    );
    const flagged = await run(['replay', join(sessions, 'sess.jsonl'), '--keep-recent-tokens', '9000', '--json', '-']);
    const rec = JSON.parse(flagged.out()) as Recording;
    expect(rec.lanes[0]!.keepRecentTokens).toBe(9000);
    expect(rec.options.settingSources).toMatchObject({ keepRecentTokens: 'flag', contextWindow: 'version default' });
    const bad = await run(['replay', join(sessions, 'sess.jsonl'), '--compaction-mode', 'fast']);
    expect(bad.code).toBe(2);
    expect(bad.err()).toBe('--compaction-mode fast: give default or safeguard\n');
  });

  it('bad input exits 2 with what to fix', async () => {
    const file = await sessionFile();
    const bad = await run(['replay', file, '--lane', 'lossless']);
    expect(bad.code).toBe(2);
    expect(bad.err()).toContain('Invalid lane spec "lossless": it must start with "legacy" or "plugin:"');
    const missing = await run(['replay', join(tempDir(), 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err()).toContain(
      'does not exist. Pass a session .jsonl file, <openclaw-agent.sqlite>#<session key>, or a folder holding sessions.',
    );
    const window = await run(['replay', file, '--window', 'big']);
    expect(window.code).toBe(2);
    expect(window.err()).toBe('--window big: give a positive whole number of tokens, e.g. --window 32000\n');
  });

  it('compare prints lanes side by side and --fail-on turns findings into exit code 1', async () => {
    const file = await sessionFile();
    const out = join(tempDir(), 'rec.json');
    await run([
      'replay',
      file,
      '--lane',
      'legacy?window=32000',
      '--lane',
      'legacy?window=64000&label=wide',
      '--json',
      out,
    ]);
    const r = await run(['compare', out]);
    expect(r.code).toBe(0);
    const lines = r.out().split('\n');
    expect(lines[0]).toMatch(/^\s+│ legacy@32000\s+│ wide$/);
    expect(lines[1]).toMatch(
      /^turn │ tokens\/budget\s+kept·sum·drop\s+events │ tokens\/budget\s+kept·sum·drop\s+events$/,
    );
    // both legacy lanes pass the history through: no ≠ on any turn
    expect(lines[3]).toMatch(/^\s+2\s+│\s+\d+\/\d+\s+2·0·0\s+│\s+\d+\/\d+\s+2·0·0$/);
    expect(r.out()).toContain('≠ lanes differ in what they assembled at 0 of 3 turns;');
    expect(r.out()).toContain(
      '\nFindings (1):\n  warning keep-recent-exceeds-budget legacy@32000 turn –: keepRecentTokens 20000 ≥ prompt budget 12000',
    );

    // a recording with an error finding fails CI under --fail-on error
    const rec = JSON.parse(readFileSync(out, 'utf8'));
    rec.findings.push({ code: 'orphaned-tool-call', severity: 'error', lane: 'wide', turn: 1, message: 'x' });
    writeFileSync(out, JSON.stringify(rec));
    const failing = await run(['compare', out, '--fail-on', 'error']);
    expect(failing.code).toBe(1);
    expect(failing.err()).toBe('1 finding(s) matched --fail-on error\n');
    expect((await run(['compare', out, '--fail-on', 'estimate-drift'])).code).toBe(0);
  });

  it('compare --json prints rows and findings', async () => {
    const r = await run(['compare', await sessionFile(), '--json', '--window', '32000']);
    const parsed = JSON.parse(r.out());
    expect(parsed.rows).toHaveLength(3);
    expect(parsed.rows[2].lanes.legacy).toMatchObject({ kept: 4, summarized: 0, dropped: 0, status: 'ok' });
    expect(parsed.rows.map((row: { differs: boolean }) => row.differs)).toEqual([false, false, false]);
    expect(parsed.failing).toBe(0);
  });
});

describe('compare on the demo session at an 8k window (legacy and recent-window)', () => {
  let file: string;
  let recording: Recording;

  beforeAll(async () => {
    file = join(tempDir(), 'demo8k.json');
    const made = await run([
      'replay',
      DEMO,
      '--lane',
      'legacy',
      '--lane',
      'plugin:recent-window',
      '--window',
      '8000',
      '--allow-execute',
      '--no-progress',
      '--json',
      file,
    ]);
    expect(made.err()).toBe('');
    recording = importRecording(readFileSync(file, 'utf8'));
  }, 60_000);

  /**
   * the keys legacy sent at turn 4 (index 3) that recent-window did not send; `transcriptOnly` leaves out
   * legacy's compaction summaries, which the aligned view shows as summary rows
   */
  function leftOutByWindow(transcriptOnly = false): string[] {
    const sentByWindow = new Set(recording.turns['recent-window']![3]!.assembled.map((a) => a.key));
    return recording.turns
      .legacy![3]!.assembled.filter((a) => !transcriptOnly || a.provenance !== 'summary')
      .map((a) => a.key)
      .filter((key) => !sentByWindow.has(key));
  }

  it('--turn 4 prints one line per message legacy sent and recent-window dropped, with both statuses', async () => {
    const r = await run(['compare', file, '--turn', '4']);
    expect(r.code).toBe(0);
    const expected = leftOutByWindow();
    expect(expected.length).toBeGreaterThan(0);
    const lines = r.out().split('\n');
    // the count includes legacy's compaction summary when recent-window has none (the release decides that)
    const header = /^Turn 4 of 12 · lanes differ: recent-window left out (\d+) messages that legacy sent/.exec(
      lines[0]!,
    );
    expect(Number(header?.[1])).toBeGreaterThanOrEqual(leftOutByWindow(true).length);
    expect(Number(header?.[1])).toBeLessThanOrEqual(expected.length);
    const sentDropped = lines.filter((line) => /│ ● sent\s+#\d+\s+\d+\s+│ ✕ dropped\s+\(\d+\)$/.test(line));
    expect(sentDropped).toHaveLength(leftOutByWindow(true).length);
    expect(r.out()).toContain('Legend: ● sent = sent as the transcript has it');
    expect(r.out()).toMatch(/… \d+ messages identical in all lanes/);
  });

  it('--turn 4 --json gives the same rows as data, keyed by lane', async () => {
    const r = await run(['compare', file, '--turn', '4', '--json']);
    const parsed = JSON.parse(r.out());
    expect(parsed.turn).toBe(4);
    const keys = parsed.rows
      .filter((row: any) => row.cells.legacy.status === 'sent' && row.cells['recent-window'].status === 'dropped')
      .map((row: any) => row.id);
    expect(keys).toEqual(leftOutByWindow(true));
    expect(parsed.lanes.map((lane: any) => lane.id)).toEqual(['legacy', 'recent-window']);
  });

  it('--only-differing keeps exactly the turns the JSON says differ', async () => {
    const all = JSON.parse((await run(['compare', file, '--json'])).out());
    const differing = all.rows.filter((row: any) => row.differs).map((row: any) => row.turn + 1);
    expect(differing.length).toBeGreaterThan(0);
    expect(differing.length).toBeLessThan(all.rows.length);
    const table = (await run(['compare', file, '--only-differing'])).out();
    const turns = table
      .split('\n')
      .map((line) => /^\s*(\d+) ≠ │/.exec(line)?.[1])
      .filter((t): t is string => t !== undefined)
      .map(Number);
    expect(turns).toEqual(differing);
  });

  it('--turn outside the recording is a usage error that names the range', async () => {
    const r = await run(['compare', file, '--turn', '13']);
    expect(r.code).toBe(2);
    expect(r.err()).toBe(
      '--turn 13: give a turn number from 1 to 12 (turns are numbered from 1, as the table shows)\n',
    );
  });

  describe('recording against recording', () => {
    /** The same recording with recent-window's turn 6 sending one message fewer (a changed plugin). */
    function regressed(): string {
      const copy = importRecording(readFileSync(file, 'utf8'));
      const record = copy.turns['recent-window']![5]!;
      const gone = record.assembled.pop()!;
      const index = copy.session.messageKeys.indexOf(gone.key);
      record.omitted.dropped.push([index, index + 1]);
      record.omitted.droppedCount++;
      record.omitted.keptCount--;
      const out = join(tempDir(), 'regressed.json');
      writeFileSync(out, JSON.stringify(copy));
      return out;
    }

    it('prints the turns where the same engine now assembles something different, and --fail-on-diff exits 1', async () => {
      const other = regressed();
      const r = await run(['compare', file, other, '--fail-on-diff']);
      expect(r.code).toBe(1);
      expect(r.err()).toBe('1 turn(s) differ (--fail-on-diff)\n');
      expect(r.out()).toContain('  legacy: the same at every turn\n');
      expect(r.out()).toContain(
        '  recent-window: assembles something different at 1 of 12 turns (6)\n    turn 6: recent-window (new) left out 1 message that recent-window (old) sent\n',
      );
    });

    it('two recordings of the same replay do not differ', async () => {
      const r = await run(['compare', file, file, '--fail-on-diff']);
      expect(r.code).toBe(0);
      expect(r.out()).toContain('No turn differs.');
    });

    it('refuses recordings of different sessions with a clear message', async () => {
      const copy = importRecording(readFileSync(file, 'utf8'));
      copy.session.sessionId = 'another-session';
      const other = join(tempDir(), 'other.json');
      writeFileSync(other, JSON.stringify(copy));
      const r = await run(['compare', file, other]);
      expect(r.code).toBe(2);
      expect(r.err()).toBe(
        `The recordings replay different sessions (${recording.session.sessionId} and another-session): compare two recordings of the same session.\n`,
      );
    });
  });
});

/**
 * What the bridge echoes back is bounded and content-free (issue 17 item 10): an error never carries a caller's
 * 9.9 MB value back whole, and a file that is not a transcript is described by counts and positions, never by its
 * lines.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../main/handlers';
import { BRIDGE_ERROR_LIMITS, createBridgeDispatcher } from '../../../src/bridge';
import { tempDir } from '../replay/sessionBuilder';

const dispatcher = () =>
  createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }), { validateResponses: true });

const SECRET = 'hunter2-secret-token';

describe('bridge errors', () => {
  it('cap an echoed value: a 9.9 MB replayId gives an error of about 2 KB that says how long it was', async () => {
    const outcome = await dispatcher().call('replay.get', { replayId: 'x'.repeat(9_900_000) });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('not_found');
    expect(outcome.error.message.length).toBeLessThanOrEqual(BRIDGE_ERROR_LIMITS.message);
    expect(outcome.error.message).toMatch(/… \(\d+ characters\)$/);
    expect(JSON.stringify(outcome).length).toBeLessThan(3000);
  });

  it('cap a hostile property name in the path and message of invalid_params', async () => {
    const key = 'k'.repeat(1_000_000);
    const outcome = await dispatcher().call('replay.get', { replayId: 'r', [key]: 1 });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('invalid_params');
    expect(outcome.error.path.length).toBeLessThanOrEqual(BRIDGE_ERROR_LIMITS.path);
    expect(outcome.error.message.length).toBeLessThanOrEqual(BRIDGE_ERROR_LIMITS.message);
  });
});

describe('replay.start on files that are not transcripts', () => {
  it('answers with counts and positions, never with the lines', async () => {
    const dir = tempDir();
    const text = join(dir, 'notes.jsonl');
    writeFileSync(text, `password: ${SECRET}\nsecond line ${SECRET}\nthird\n`);
    const refused = await dispatcher().call('replay.start', { sessionPath: text, lanes: ['legacy'], window: 32000 });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toContain('none of its 3 line(s) is a session header or entry');
    expect(refused.error.message).toContain('line 1:');
    for (const leaked of [SECRET, 'passwor', 'second']) expect(refused.error.message).not.toContain(leaked);
  });

  it('a header followed by lines that are not JSON: problems name lines, not their content', async () => {
    const dir = tempDir();
    const file = join(dir, 'garbled.jsonl');
    const header = { type: 'session', version: 3, id: 's', timestamp: '2026-03-02T09:00:00.000Z', cwd: '/w' };
    writeFileSync(file, `${JSON.stringify(header)}\n${SECRET} one\n'${SECRET}' two\n`);
    const d = dispatcher();
    const started = await d.call('replay.start', { sessionPath: file, lanes: ['legacy'], window: 32000 });
    expect(started.ok).toBe(true);
    if (!started.ok) return;
    const { replayId } = started.result as { replayId: string };
    let recording: { session: { problems: { line: number; message: string }[] } } | undefined;
    while (!recording) {
      const got = await d.call('replay.get', { replayId });
      if (!got.ok) throw new Error(got.error.message);
      const result = got.result as { status: string; recording?: typeof recording };
      if (result.status !== 'running') recording = result.recording;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(recording.session.problems.map((p) => p.line)).toEqual([2, 3]);
    for (const problem of recording.session.problems) {
      expect(problem.message).toBe('is not valid JSON (Unexpected token)');
    }
  });
});

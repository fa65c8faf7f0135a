/**
 * Transcript content that used to crash the replay (issue 17 item 3 and 9): a text block whose text is a number, a
 * message nested 10,000 levels deep, a message with an unknown role. Each is a problem with its line; the replay
 * of the rest completes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openReplaySession, replaySession } from '../../../src/replay';
import { readSessionFile, serializeSessionEntries } from '../../../src/transcripts';
import { SessionBuilder, tempDir } from './sessionBuilder';

/** JSON text of an object nested `levels` deep (written as text: JSON.stringify itself would overflow). */
function deepJson(levels: number): string {
  return `${'{"nested":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;
}

describe('hostile transcript content', () => {
  it('becomes problems with their lines, and the replay of the rest completes', async () => {
    const b = new SessionBuilder().turn('first question').turn('second question');
    const file = join(tempDir(), 'hostile.jsonl');
    const good = serializeSessionEntries(b.header, b.entries).trimEnd().split('\n');
    const last = b.entries.at(-1)!;
    const hostile = [
      { role: 'user', content: [{ type: 'text', text: 12345 }], timestamp: 1 },
      { role: 'user', content: 'deep', timestamp: 2, details: '__DEEP__' },
      { role: 'wizard', content: 'abracadabra', timestamp: 3 },
    ].map((message, i) =>
      JSON.stringify({
        type: 'message',
        id: `bad${i}`,
        parentId: last.id,
        timestamp: '2026-01-05T10:00:00.000Z',
        message,
      }),
    );
    const deepCustom = JSON.stringify({
      type: 'custom',
      id: 'bad3',
      parentId: last.id,
      timestamp: '2026-01-05T10:00:00.000Z',
      customType: 'x',
      data: '__ARRAYS__',
    });
    writeFileSync(
      file,
      [...good, ...hostile, deepCustom]
        .join('\n')
        .replace('"__DEEP__"', deepJson(10_000))
        .replace('"__ARRAYS__"', `${'['.repeat(100_000)}${']'.repeat(100_000)}`) + '\n',
    );

    const loaded = await readSessionFile(file, { mode: 'tolerant' });
    const lines = good.length;
    expect(loaded.problems.map((p) => [p.line, p.code])).toEqual([
      [lines + 1, 'invalid_entry'],
      [lines + 2, 'invalid_entry'],
      [lines + 3, 'invalid_entry'],
      [lines + 4, 'invalid_entry'],
    ]);
    expect(loaded.problems[0]!.message).toContain('content[0].text is not a string');
    expect(loaded.problems[1]!.message).toContain('nested deeper than 200 levels');
    expect(loaded.problems[2]!.message).toContain('unknown role "wizard"');
    expect(loaded.problems[3]!.message).toContain('has a custom entry nested deeper than 200 levels');
    await expect(readSessionFile(file, { mode: 'strict' })).rejects.toThrow(`line ${lines + 1}`);

    const recording = await replaySession({
      session: file,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32000 }],
    });
    expect(recording.lanes[0]!.turnCount).toBe(2);
    expect(recording.session.problems).toHaveLength(4);
  });
});

describe('inputs that are not transcripts at all', () => {
  it.each([
    ['empty', Buffer.alloc(0), 'is not an OpenClaw session transcript: missing session header (the file is empty).'],
    [
      'binary',
      Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0a, 0x99, 0x88]),
      'is not an OpenClaw session transcript: none of its 2 line(s) is a session header or entry (2 problem(s); the first, line 1:',
    ],
    [
      'UTF-16',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"type":"session"}\n', 'utf16le')]),
      'is UTF-16 (little-endian) text; OpenClaw writes transcripts as UTF-8 JSONL.',
    ],
  ])('a replay of a %s file is refused with what it is, instead of "0 turns"', async (_name, bytes, message) => {
    const file = join(tempDir(), 'input.jsonl');
    writeFileSync(file, bytes);
    const error = await openReplaySession(file).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toContain(file);
    expect(error?.message).toContain(message);
  });
});

describe('problems a transcript used to hide (issue 17 item 9)', () => {
  it('a wizard message and a toolResult whose call is not in the transcript: problems with their lines, and replay findings', async () => {
    const b = new SessionBuilder().turn('first question');
    const last = b.entries.at(-1)!;
    const line = (id: string, parentId: string, message: Record<string, unknown>) =>
      JSON.stringify({ type: 'message', id, parentId, timestamp: '2026-01-05T10:00:00.000Z', message });
    const good = serializeSessionEntries(b.header, b.entries).trimEnd().split('\n');
    const file = join(tempDir(), 'hidden.jsonl');
    writeFileSync(
      file,
      [
        ...good,
        line('wiz', last.id, { role: 'wizard', content: 'abracadabra', timestamp: 1 }),
        line('orphan', last.id, {
          role: 'toolResult',
          toolCallId: 'call_nowhere',
          toolName: 'exec',
          content: [{ type: 'text', text: 'done' }],
          isError: false,
          timestamp: 2,
        }),
        line('next', 'orphan', { role: 'user', content: 'second question', timestamp: 3 }),
      ].join('\n') + '\n',
    );
    const wizardLine = good.length + 1;
    const orphanLine = good.length + 2;

    const loaded = await readSessionFile(file, { mode: 'tolerant' });
    expect(loaded.problems.map((p) => [p.line, p.code, p.severity])).toEqual([
      [wizardLine, 'invalid_entry', 'error'],
      [orphanLine, 'orphan_tool_result', 'warning'],
    ]);
    expect(loaded.problems[1]!.message).toContain('toolResult for call "call_nowhere" (exec)');
    // the orphan alone does not make the file unreadable (OpenClaw's repair drops it)
    const withoutWizard = join(tempDir(), 'orphan.jsonl');
    writeFileSync(
      withoutWizard,
      [
        ...good,
        line('orphan', last.id, {
          role: 'toolResult',
          toolCallId: 'x',
          toolName: 'exec',
          content: [],
          isError: false,
          timestamp: 2,
        }),
      ].join('\n') + '\n',
    );
    const strict = await readSessionFile(withoutWizard, { mode: 'strict' });
    expect(strict.problems.map((p) => p.code)).toEqual(['orphan_tool_result']);

    const recording = await replaySession({
      session: file,
      lanes: [{ engine: { kind: 'legacy' }, contextWindow: 32000 }],
    });
    const findings = recording.findings.filter((f) => f.code === 'session-problem');
    expect(findings.map((f) => [f.severity, f.lane, f.message.split(': ')[0]])).toEqual([
      ['error', 'legacy', `${file}:${wizardLine}`],
      ['warning', 'legacy', `${file}:${orphanLine}`],
    ]);
    expect(findings[0]!.message).toContain('unknown role "wizard"');
    expect(findings[1]!.message).toContain('orphan_tool_result');
  });
});

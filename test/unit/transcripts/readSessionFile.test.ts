import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSessionContext, parseSessionText, readSessionFile, SessionFileError } from '../../../src/transcripts';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/transcripts/malformed');
const tmp = () => mkdtempSync(join(tmpdir(), 'cs-read-'));
const HEADER_LINE = '{"type":"session","version":3,"id":"s","timestamp":"2026-01-05T10:00:00.000Z","cwd":"/w"}';

describe('readSessionFile', () => {
  it('reads every v3 entry type, keeping unknown fields and key order', () => {
    const lines = [
      HEADER_LINE,
      '{"type":"model_change","id":"e1","parentId":null,"timestamp":"2026-01-05T10:00:01.000Z","provider":"anthropic","modelId":"claude-sonnet-4-5"}',
      '{"type":"thinking_level_change","id":"e2","parentId":"e1","timestamp":"2026-01-05T10:00:02.000Z","thinkingLevel":"medium"}',
      '{"type":"message","id":"e3","parentId":"e2","timestamp":"2026-01-05T10:00:03.000Z","message":{"role":"user","content":"hi","timestamp":1},"extra":true}',
      '{"type":"custom","id":"e4","parentId":"e3","timestamp":"2026-01-05T10:00:04.000Z","customType":"state","data":{"n":1}}',
      '{"type":"custom_message","id":"e5","parentId":"e4","timestamp":"2026-01-05T10:00:05.000Z","customType":"note","content":"c","display":true}',
      '{"type":"label","id":"e6","parentId":"e5","timestamp":"2026-01-05T10:00:06.000Z","targetId":"e3","label":"start"}',
      '{"type":"session_info","id":"e7","parentId":"e6","timestamp":"2026-01-05T10:00:07.000Z","name":"Fix login"}',
      '{"type":"branch_summary","id":"e8","parentId":"e7","timestamp":"2026-01-05T10:00:08.000Z","fromId":"zz","summary":"b"}',
      '{"type":"compaction","id":"e9","parentId":"e8","timestamp":"2026-01-05T10:00:09.000Z","summary":"s","firstKeptEntryId":"e5","tokensBefore":10,"fromHook":false}',
      '{"type":"reset","id":"ea","parentId":"e9","timestamp":"2026-01-05T10:00:10.000Z","reason":"idle"}',
      '{"type":"leaf","id":"eb","parentId":"ea","timestamp":"2026-01-05T10:00:11.000Z","targetId":"ea"}',
    ];
    const session = parseSessionText(`${lines.join('\n')}\n`, 'all.jsonl', 'strict');
    expect(session.problems).toEqual([]);
    expect(session.entries.map((e) => e.type)).toEqual([
      'model_change',
      'thinking_level_change',
      'message',
      'custom',
      'custom_message',
      'label',
      'session_info',
      'branch_summary',
      'compaction',
      'reset',
      'leaf',
    ]);
    expect(session.entries.map((e) => JSON.stringify(e))).toEqual(lines.slice(1));
    expect(session.entryLines).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(session.leafId).toBe('ea');
    // the reset is the boundary: nothing before it is kept (no firstKeptEntryId)
    expect(buildSessionContext(session)).toMatchObject({
      messages: [],
      thinkingLevel: 'medium',
      model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
    });
  });

  it('counts blank lines in line numbers and ignores them', () => {
    const text = `\n${HEADER_LINE}\n\n   \n{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-05T10:00:01.000Z","message":{"role":"user","content":"x","timestamp":1}}\n{bad\n`;
    const session = parseSessionText(text, 'blank.jsonl', 'tolerant');
    expect(session.entryLines).toEqual([5]);
    expect(session.problems.map((p) => p.line)).toEqual([6]);
    expect(session.lineCount).toBe(6);
  });

  it('migrates a v1 file: linear ids and parents, firstKeptEntryIndex → firstKeptEntryId, version 3, deterministic ids', async () => {
    const path = join(FIXTURES, '20-v1-needs-migration.jsonl');
    const session = await readSessionFile(path);
    expect(session.sourceVersion).toBe(1);
    expect(session.header.version).toBe(3);
    const [m1, m2, m3, compaction, m4] = session.entries;
    expect(m1!.parentId).toBeNull();
    expect([m2!.parentId, m3!.parentId, compaction!.parentId, m4!.parentId]).toEqual([
      m1!.id,
      m2!.id,
      m3!.id,
      compaction!.id,
    ]);
    for (const e of session.entries) expect(e.id).toMatch(/^[0-9a-f]{8}$/);
    // record index 3 (header = 0) is the third entry, "second"
    expect(compaction).toMatchObject({ type: 'compaction', firstKeptEntryId: m3!.id });
    expect(compaction).not.toHaveProperty('firstKeptEntryIndex');
    expect(buildSessionContext(session).messageEntryIds).toEqual([compaction!.id, m3!.id, m4!.id]);
    const again = await readSessionFile(path);
    expect(again.entries.map((e) => e.id)).toEqual(session.entries.map((e) => e.id));
  });

  it('migrates a v2 file: the hookMessage role becomes custom', async () => {
    const session = await readSessionFile(join(FIXTURES, '21-v2-hook-message.jsonl'));
    expect(session.sourceVersion).toBe(2);
    expect(session.entries[1]).toMatchObject({
      id: 'b2',
      message: { role: 'custom', customType: 'git-status', content: 'On branch main' },
    });
    expect(buildSessionContext(session).messages.map((m) => m.role)).toEqual(['user', 'custom']);
  });

  it('tolerates a BOM and CRLF line endings (warnings only) and reads the same entries as the clean file', async () => {
    const bom = await readSessionFile(join(FIXTURES, '10-bom.jsonl'), { mode: 'strict' });
    const crlf = await readSessionFile(join(FIXTURES, '11-crlf.jsonl'), { mode: 'strict' });
    expect(bom.problems.map((p) => [p.code, p.severity])).toEqual([['bom', 'warning']]);
    expect(crlf.problems.map((p) => [p.code, p.severity])).toEqual([['crlf', 'warning']]);
    expect(crlf.entries).toEqual(bom.entries);
    expect(bom.header.id).toBe('sess-fixture');
  });

  it('tolerant mode makes up a header named after the file when there is none', async () => {
    const session = await readSessionFile(join(FIXTURES, '03-missing-header.jsonl'), { mode: 'tolerant' });
    expect(session.headerSynthesized).toBe(true);
    expect(session.header).toEqual({
      type: 'session',
      version: 3,
      id: '03-missing-header',
      timestamp: '1970-01-01T00:00:00.000Z',
      cwd: '',
    });
  });

  it('rejects a missing file in both modes with read_error and the path', async () => {
    const path = join(tmp(), 'nope.jsonl');
    for (const mode of ['strict', 'tolerant'] as const) {
      const error = await readSessionFile(path, { mode }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionFileError);
      expect((error as SessionFileError).code).toBe('read_error');
      expect((error as Error).message).toBe(`Invalid JSONL session file ${path}: cannot read the file (no such file)`);
    }
  });

  it('reads a valid 5 MB single-line entry, and reports an invalid one briefly', async () => {
    const dir = tmp();
    const big = 'x'.repeat(5 * 1024 * 1024);
    const good = join(dir, 'good.jsonl');
    writeFileSync(
      good,
      `${HEADER_LINE}\n{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-05T10:00:01.000Z","message":{"role":"user","content":"${big}","timestamp":1}}\n`,
    );
    const session = await readSessionFile(good, { mode: 'strict' });
    expect((session.entries[0] as { message: { content: string } }).message.content).toHaveLength(big.length);

    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${HEADER_LINE}\n{"type":"message","id":"a","content":"${big}\n`);
    const tolerant = await readSessionFile(bad, { mode: 'tolerant' });
    expect(tolerant.problems).toHaveLength(1);
    expect(tolerant.problems[0]).toMatchObject({ line: 2, code: 'invalid_entry' });
    expect(tolerant.problems[0]!.message.startsWith('is not valid JSON (')).toBe(true);
    expect(tolerant.problems[0]!.message.length).toBeLessThan(300);
    await expect(readSessionFile(bad, { mode: 'strict' })).rejects.toThrow(
      `Invalid JSONL session file ${bad}: line 2: is not valid JSON (`,
    );
  });

  it('keeps multi-byte characters intact when they straddle read chunks', async () => {
    const dir = tmp();
    const file = join(dir, 'cjk.jsonl');
    const text = '漢字かな😀'.repeat(300_000); // several MiB of 3- and 4-byte UTF-8 sequences
    writeFileSync(
      file,
      `${HEADER_LINE}\n{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-05T10:00:01.000Z","message":{"role":"user","content":"${text}","timestamp":1}}\n`,
    );
    const session = await readSessionFile(file);
    expect((session.entries[0] as { message: { content: string } }).message.content).toBe(text);
  });
});

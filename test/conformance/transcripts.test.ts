import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../src/contract';
import { buildContextFromPath, convertToLlm, readSessionFile } from '../../src/transcripts';

const ts = (s: number) => `2026-01-05T10:00:${String(s).padStart(2, '0')}.000Z`;

describe('§14 transcripts', () => {
  it.each([
    [
      'a message entry first',
      '{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-05T10:00:00.000Z","message":{"role":"user","content":"x","timestamp":1}}\n',
      'line 1: first line is not a valid session header',
    ],
    [
      'version "3" as a string',
      '{"type":"session","version":"3","id":"s","timestamp":"2026-01-05T10:00:00.000Z","cwd":"/"}\n',
      'line 1: unsupported session version "3"',
    ],
    [
      // OpenClaw 2026.9.6 writes version 4, which keeps v3's entries (read as v3); 5 is not known
      'version 5',
      '{"type":"session","version":5,"id":"s","timestamp":"2026-01-05T10:00:00.000Z","cwd":"/"}\n',
      'line 1: unsupported session version number 5 (ContextScope reads versions 1-4)',
    ],
    ['blank lines before a non-header', '\n\n[1]\n', 'line 3: first line is not a valid session header'],
  ])(
    '§14.55 a file whose first non-blank line is not a session header of a known version (1-4) fails to load (%s)',
    async (_name, text, reason) => {
      const file = join(mkdtempSync(join(tmpdir(), 'cs-conf-')), 'bad.jsonl');
      writeFileSync(file, text);
      await expect(readSessionFile(file, { mode: 'strict' })).rejects.toThrow(
        `Invalid JSONL session file ${file}: ${reason}`,
      );
    },
  );

  it('§14.56 the path [m1, m2, compaction{firstKeptEntryId:m2}, m3] builds [compactionSummary, m2, m3]', () => {
    const m = (id: string, parentId: string | null, s: number, text: string): SessionEntry => ({
      type: 'message',
      id,
      parentId,
      timestamp: ts(s),
      message: { role: 'user', content: text, timestamp: s },
    });
    const path: SessionEntry[] = [
      m('m1', null, 1, 'one'),
      m('m2', 'm1', 2, 'two'),
      {
        type: 'compaction',
        id: 'c1',
        parentId: 'm2',
        timestamp: ts(3),
        summary: 'S',
        firstKeptEntryId: 'm2',
        tokensBefore: 123,
      },
      m('m3', 'c1', 4, 'three'),
    ];
    const context = buildContextFromPath(path);
    expect(context.messages).toEqual([
      { role: 'compactionSummary', summary: 'S', tokensBefore: 123, timestamp: Date.parse(ts(3)) },
      { role: 'user', content: 'two', timestamp: 2 },
      { role: 'user', content: 'three', timestamp: 4 },
    ]);
    expect(context.messageEntryIds).toEqual(['c1', 'm2', 'm3']);
  });

  it('§14.57 a compactionSummary reaches the LLM as a user message wrapped in the summary prefix and suffix', () => {
    const [llm] = convertToLlm([
      { role: 'compactionSummary', summary: 'Goal: fix login', tokensBefore: 10, timestamp: 5 },
    ]);
    expect(llm!.role).toBe('user');
    const content = (llm as { content: { type: string; text: string }[] }).content;
    expect(content).toHaveLength(1);
    const text = content[0]!.text;
    expect(
      text.startsWith(
        'The conversation history before this point was compacted into the following summary:\n\n<summary>\n',
      ),
    ).toBe(true);
    expect(text.endsWith('\n</summary>')).toBe(true);
    expect(text).toBe(
      'The conversation history before this point was compacted into the following summary:\n\n<summary>\nGoal: fix login\n</summary>',
    );
    expect(llm).toMatchObject({ synthetic: true, timestamp: 5 });
  });
});

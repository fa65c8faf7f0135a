import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NewSessionEntry } from '../../../src/contract';
import {
  createSessionTranscript,
  openSessionTranscript,
  readSessionFile,
  serializeSessionEntries,
} from '../../../src/transcripts';
import { HEADER, assistant, user } from './entryBuilders';

const tmp = () => mkdtempSync(join(tmpdir(), 'cs-transcript-'));
const msg = (m: ReturnType<typeof user>) => ({ type: 'message', message: m }) as NewSessionEntry;

describe('createSessionTranscript', () => {
  it('appendEntry assigns 8-hex ids unique in the session, parentId = current leaf, and an ISO timestamp', () => {
    const t = createSessionTranscript({ header: HEADER, now: () => new Date('2026-01-05T10:00:00.000Z') });
    const a = t.appendEntry(msg(user('a')));
    const b = t.appendEntry(msg(assistant('b')));
    expect(a).toMatchObject({ type: 'message', parentId: null, timestamp: '2026-01-05T10:00:00.000Z' });
    expect(b.parentId).toBe(a.id);
    for (const e of [a, b]) expect(e.id).toMatch(/^[0-9a-f]{8}$/);
    expect(t.leafId()).toBe(b.id);
    expect(t.activePath()).toEqual([a, b]);
  });

  it('never reuses an id even when the id source repeats itself', () => {
    const ids = ['aaaaaaaa', 'aaaaaaaa', 'bbbbbbbb'];
    const t = createSessionTranscript({ header: HEADER, idSource: () => ids.shift() ?? 'cccccccc' });
    expect([t.appendEntry(msg(user('1'))).id, t.appendEntry(msg(user('2'))).id]).toEqual(['aaaaaaaa', 'bbbbbbbb']);
  });

  it('puts type, id, parentId, timestamp first and keeps the payload key order', () => {
    const t = createSessionTranscript({ header: HEADER, idSource: () => '0000000a' });
    const e = t.appendEntry({
      type: 'compaction',
      summary: 's',
      firstKeptEntryId: 'x',
      tokensBefore: 3,
      details: { readFiles: [] },
    } as NewSessionEntry);
    expect(Object.keys(e)).toEqual([
      'type',
      'id',
      'parentId',
      'timestamp',
      'summary',
      'firstKeptEntryId',
      'tokensBefore',
      'details',
    ]);
  });

  it('moveLeaf appends a leaf entry and the next entry branches from the target', () => {
    const t = createSessionTranscript({ header: HEADER });
    const a = t.appendEntry(msg(user('a')));
    t.appendEntry(msg(assistant('abandoned')));
    const leaf = t.moveLeaf(a.id);
    const c = t.appendEntry(msg(assistant('new')));
    expect(leaf).toMatchObject({ type: 'leaf', targetId: a.id });
    expect(c.parentId).toBe(a.id);
    expect(t.activePath().map((e) => e.id)).toEqual([a.id, c.id]);
    expect(() => t.moveLeaf('nope')).toThrow('Cannot move the leaf of session sess-test: entry nope not found');
  });

  it('with a sessionFile, writes header + entries once and appends each entry synchronously, byte-compatible', () => {
    const file = join(tmp(), 'nested', 's.jsonl');
    const t = createSessionTranscript({ header: HEADER, sessionFile: file });
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(HEADER)}\n`);
    const a = t.appendEntry(msg(user('中文 😀')));
    // visible to another reader as soon as appendEntry returns
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(HEADER)}\n${JSON.stringify(a)}\n`);
    const b = t.appendEntry(msg(assistant('b')));
    expect(readFileSync(file, 'utf8')).toBe(serializeSessionEntries(HEADER, [a, b]));
  });
});

describe('openSessionTranscript', () => {
  it('loads an existing file and mirrors appends to it without rewriting what was there', async () => {
    const dir = tmp();
    const file = join(dir, 's.jsonl');
    const first = createSessionTranscript({ header: HEADER, sessionFile: file });
    const a = first.appendEntry(msg(user('a')));
    const before = readFileSync(file, 'utf8');
    const reopened = await openSessionTranscript(file);
    expect(reopened.leafId()).toBe(a.id);
    const b = reopened.appendEntry(msg(assistant('b')));
    expect(b.parentId).toBe(a.id);
    expect(readFileSync(file, 'utf8')).toBe(before + `${JSON.stringify(b)}\n`);
    const loaded = await readSessionFile(file);
    expect(loaded.entries).toEqual([a, b]);
  });

  it('refuses to append to a version-1 file', async () => {
    const file = join(tmp(), 'v1.jsonl');
    writeFileSync(file, '{"type":"session","id":"old","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/"}\n');
    await expect(openSessionTranscript(file)).rejects.toThrow(
      `Cannot append to ${file}: it is a version 1 transcript.`,
    );
  });
});

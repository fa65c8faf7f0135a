import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSession, readSessionFile, serializeSessionEntries, writeSessionFile } from '../../../src/transcripts';

const tmp = () => mkdtempSync(join(tmpdir(), 'cs-rt-'));
const FIXTURES = resolve(import.meta.dirname, '../../fixtures/transcripts/malformed');

describe('round trip', () => {
  it('read → write → read gives the same header and entries', async () => {
    const dir = tmp();
    const set = generateSession({ turns: 15, seed: 11, subagents: 2 });
    for (const session of set.sessions) {
      const first = join(dir, `a-${session.fileName}`);
      await writeSessionFile(first, session);
      const loaded = await readSessionFile(first);
      const second = join(dir, `b-${session.fileName}`);
      await writeSessionFile(second, loaded);
      const reloaded = await readSessionFile(second);
      expect(reloaded.header).toEqual(loaded.header);
      expect(reloaded.entries).toEqual(loaded.entries);
      expect(reloaded.leafId).toBe(loaded.leafId);
    }
  });

  it('a file serialized the OpenClaw way (JSON.stringify per line, "\\n") is rewritten byte for byte', async () => {
    const dir = tmp();
    const set = generateSession({ turns: 10, seed: 12 });
    const original = join(dir, 'orig.jsonl');
    // written independently of writeSessionFile, the way OpenClaw appends
    writeFileSync(
      original,
      [set.sessions[0]!.header, ...set.sessions[0]!.entries].map((v) => `${JSON.stringify(v)}\n`).join(''),
    );
    const copy = join(dir, 'copy.jsonl');
    await writeSessionFile(copy, await readSessionFile(original));
    expect(readFileSync(copy)).toEqual(readFileSync(original));
  });

  it('keeps unusual key orders, extra header fields and unicode escapes-free output exactly', async () => {
    const dir = tmp();
    const lines = [
      '{"version":3,"type":"session","cwd":"/w","id":"odd","timestamp":"2026-01-05T10:00:00.000Z","producer":"openclaw 2026.3"}',
      '{"id":"a","type":"message","timestamp":"2026-01-05T10:00:01.000Z","parentId":null,"message":{"timestamp":1,"content":"日本語 😀 \\"q\\"","role":"user"}}',
      '{"parentId":"a","timestamp":"2026-01-05T10:00:02+02:00","id":"b","type":"custom","customType":"x","data":null}',
    ];
    const original = join(dir, 'odd.jsonl');
    writeFileSync(original, `${lines.join('\n')}\n`);
    const loaded = await readSessionFile(original);
    expect(serializeSessionEntries(loaded.header, loaded.entries)).toBe(readFileSync(original, 'utf8'));
  });

  it('a migrated v1 file is written as version 3 and reads back unchanged', async () => {
    const loaded = await readSessionFile(join(FIXTURES, '20-v1-needs-migration.jsonl'));
    const out = join(tmp(), 'v3.jsonl');
    await writeSessionFile(out, loaded);
    const reloaded = await readSessionFile(out);
    expect(reloaded.sourceVersion).toBe(3);
    expect(reloaded.entries).toEqual(loaded.entries);
    expect(readFileSync(out, 'utf8').split('\n')[0]).toBe(
      '{"type":"session","id":"sess-v1","timestamp":"2025-06-01T08:00:00.000Z","cwd":"/home/dev/old","version":3}',
    );
  });
});

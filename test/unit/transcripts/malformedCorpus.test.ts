import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFile, SessionFileError, type SessionProblem } from '../../../src/transcripts';

const DIR = resolve(import.meta.dirname, '../../fixtures/transcripts/malformed');

interface Expected {
  /** tolerant mode: every problem, in order (line, code, message fragment) */
  problems: [number, SessionProblem['code'], string][];
  /** strict mode: the exact error text after `Invalid JSONL session file <path>: `, or null when strict loading succeeds */
  strict: string | null;
  /** entry ids kept by tolerant loading */
  kept: string[];
}

const A = 'a1000001';
const B = 'b2000002';

const EXPECTED: Record<string, Expected> = {
  '01-truncated-line.jsonl': {
    problems: [[3, 'invalid_entry', 'is not valid JSON (']],
    strict: 'line 3: is not valid JSON (',
    kept: [A],
  },
  '02-bad-json.jsonl': {
    problems: [[3, 'invalid_entry', 'is not valid JSON (']],
    strict: 'line 3: is not valid JSON (',
    kept: [A, B],
  },
  '03-missing-header.jsonl': {
    problems: [
      [
        1,
        'invalid_header',
        'first line is not a valid session header (got type "message"; expected {"type":"session","version":3',
      ],
    ],
    strict:
      'line 1: first line is not a valid session header (got type "message"; expected {"type":"session","version":3,"id":...,"timestamp":...,"cwd":...})',
    kept: [A, B],
  },
  // Version 4 is what OpenClaw 2026.9.6 writes for new sessions (the v3 entry format): read, no problem.
  // (Unsupported versions, 5 and up, are covered in sessionVersion4.test.ts.)
  '04-wrong-version.jsonl': {
    problems: [],
    strict: null,
    kept: [A],
  },
  '05-parent-cycle.jsonl': {
    problems: [
      [2, 'parent_cycle', 'entry "a1000001" is its own ancestor (parent cycle: a1000001 -> b2000002 -> a1000001)'],
    ],
    strict: 'line 2: entry "a1000001" is its own ancestor (parent cycle: a1000001 -> b2000002 -> a1000001)',
    kept: [A, B],
  },
  '06-orphan-parent.jsonl': {
    problems: [
      [3, 'orphan_parent', 'has parentId "zzzzzzzz", which names no entry in the file (the branch is cut there)'],
    ],
    strict: 'line 3: has parentId "zzzzzzzz", which names no entry in the file (the branch is cut there)',
    kept: [A, 'c3000003'],
  },
  '07-duplicate-ids.jsonl': {
    problems: [[3, 'duplicate_id', 'reuses entry id "a1000001" first used on line 2; the later entry was dropped']],
    strict: 'line 3: reuses entry id "a1000001" first used on line 2; the later entry was dropped',
    kept: [A],
  },
  '08-bad-timestamp.jsonl': {
    problems: [[3, 'invalid_entry', 'has invalid timestamp "2026-02-30T10:00:00.000Z" (expected ISO 8601']],
    strict:
      'line 3: has invalid timestamp "2026-02-30T10:00:00.000Z" (expected ISO 8601, e.g. 2026-01-02T03:04:05.000Z)',
    kept: [A],
  },
  '09-empty.jsonl': {
    problems: [[0, 'missing_header', 'missing session header (the file is empty)']],
    strict: 'missing session header (the file is empty)',
    kept: [],
  },
  '10-bom.jsonl': {
    problems: [[1, 'bom', 'the file starts with a UTF-8 byte-order mark; it was ignored']],
    strict: null,
    kept: [A, B],
  },
  '11-crlf.jsonl': {
    problems: [[1, 'crlf', 'the file has CRLF line endings; trailing \\r characters were ignored']],
    strict: null,
    kept: [A, B],
  },
  '12-blank-lines-only.jsonl': {
    problems: [[0, 'missing_header', 'missing session header (the file has only blank lines)']],
    strict: 'missing session header (the file has only blank lines)',
    kept: [],
  },
  '13-header-not-first.jsonl': {
    problems: [
      [1, 'invalid_header', 'first line is not a valid session header (got type "message"'],
      [2, 'misplaced_header', 'is a session header; only the first non-blank line may be one'],
    ],
    strict:
      'line 1: first line is not a valid session header (got type "message"; expected {"type":"session","version":3,"id":...,"timestamp":...,"cwd":...})',
    kept: [A, B],
  },
  '14-missing-id.jsonl': {
    problems: [[2, 'invalid_entry', 'is missing entry id']],
    strict: 'line 2: is missing entry id',
    kept: [],
  },
  '15-non-string-parent.jsonl': {
    problems: [[3, 'invalid_entry', 'has invalid parentId (expected a string or null, got number 42)']],
    strict: 'line 3: has invalid parentId (expected a string or null, got number 42)',
    kept: [A],
  },
  '16-bad-leaf-target.jsonl': {
    problems: [[4, 'invalid_entry', 'has invalid targetId (expected a string or null, got number 7)']],
    strict: 'line 4: has invalid targetId (expected a string or null, got number 7)',
    kept: [A, B],
  },
  '17-dangling-leaf.jsonl': {
    problems: [
      [4, 'dangling_leaf', 'is a leaf entry whose targetId "nope0000" names no earlier entry; it was ignored'],
    ],
    strict: 'line 4: is a leaf entry whose targetId "nope0000" names no earlier entry; it was ignored',
    kept: [A, B],
  },
  '18-bad-append-mode.jsonl': {
    problems: [[3, 'invalid_entry', 'has invalid appendMode "main" (only "side" is allowed)']],
    strict: 'line 3: has invalid appendMode "main" (only "side" is allowed)',
    kept: [A],
  },
  '19-unknown-entry-type.jsonl': {
    problems: [[3, 'unknown_entry_type', 'has unknown entry type "telemetry"; it is kept but never enters context']],
    strict: null,
    kept: [A, B],
  },
  '20-v1-needs-migration.jsonl': { problems: [], strict: null, kept: ['(5 migrated ids)'] },
  '21-v2-hook-message.jsonl': { problems: [], strict: null, kept: ['a1', 'b2'] },
  '22-missing-type.jsonl': {
    problems: [[3, 'invalid_entry', 'is missing entry type']],
    strict: 'line 3: is missing entry type',
    kept: [A],
  },
  '23-not-an-object.jsonl': {
    problems: [[3, 'invalid_entry', 'is not a valid session entry (expected a JSON object, got an array)']],
    strict: 'line 3: is not a valid session entry (expected a JSON object, got an array)',
    kept: [A],
  },
  '24-header-missing-cwd.jsonl': {
    problems: [[1, 'invalid_header', 'session header is missing cwd']],
    strict: 'line 1: session header is missing cwd',
    kept: [A],
  },
  '25-message-without-body.jsonl': {
    problems: [[3, 'invalid_entry', 'is a message entry without a message object with a string role']],
    strict: 'line 3: is a message entry without a message object with a string role',
    kept: [A],
  },
  '26-header-bad-json.jsonl': {
    problems: [[1, 'invalid_header', 'first line is not a valid session header (not valid JSON: ']],
    strict: 'line 1: first line is not a valid session header (not valid JSON: ',
    kept: [A],
  },
  '27-missing-timestamp.jsonl': {
    problems: [[2, 'invalid_entry', 'is missing timestamp']],
    strict: 'line 2: is missing timestamp',
    kept: [],
  },
};

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.jsonl'))
  .sort();

describe('malformed transcript corpus', () => {
  it('has at least 20 files, each with an expectation', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  describe.each(files)('%s', (file) => {
    const path = join(DIR, file);
    const expected = EXPECTED[file]!;

    it('tolerant mode lists exactly the expected problems and keeps the good entries', async () => {
      const session = await readSessionFile(path, { mode: 'tolerant' });
      expect(session.problems.map((p) => [p.line, p.code])).toEqual(
        expected.problems.map(([line, code]) => [line, code]),
      );
      session.problems.forEach((p, i) => expect(p.message).toContain(expected.problems[i]![2]));
      if (file.startsWith('20-')) expect(session.entries).toHaveLength(5);
      else expect(session.entries.map((e) => e.id)).toEqual(expected.kept);
    });

    it(expected.strict === null ? 'strict mode loads it' : 'strict mode fails with the first problem', async () => {
      const loading = readSessionFile(path, { mode: 'strict' });
      if (expected.strict === null) {
        await expect(loading).resolves.toMatchObject({ path });
        return;
      }
      const error = await loading.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(SessionFileError);
      const message = (error as Error).message;
      const prefix = `Invalid JSONL session file ${path}: ${expected.strict}`;
      if (expected.strict.endsWith('(') || expected.strict.endsWith(': '))
        expect(message.startsWith(prefix)).toBe(true);
      else expect(message).toBe(prefix);
      expect((error as SessionFileError).line).toBe(expected.problems[0]![0]);
      expect((error as SessionFileError).code).toBe(expected.problems[0]![1]);
    });
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import {
  ConfigEditError,
  editText,
  formatConfigPath,
  parseConfigPath,
  parseJson5Document,
  type ValueEdit,
} from '../../../src/config';
import { FIXTURES } from './configHelpers';

const REAL = readFileSync(join(FIXTURES, 'realistic', 'openclaw.json'), 'utf8');

function edit(text: string, e: ValueEdit): string {
  return editText(parseJson5Document(text), e);
}

/** The lines of `after` that are not in `before` (and the other way round), as a multiset difference. */
function lineDelta(before: string, after: string): { added: string[]; removed: string[] } {
  const count = (lines: string[]) => lines.reduce((m, l) => m.set(l, (m.get(l) ?? 0) + 1), new Map<string, number>());
  const a = count(before.split('\n'));
  const b = count(after.split('\n'));
  const added = [...b].flatMap(([l, n]) => Array(Math.max(0, n - (a.get(l) ?? 0))).fill(l));
  const removed = [...a].flatMap(([l, n]) => Array(Math.max(0, n - (b.get(l) ?? 0))).fill(l));
  return { added, removed };
}

describe('config paths', () => {
  it('reads dotted paths, quoted keys and indexes, and writes them back', () => {
    expect(parseConfigPath('plugins.entries.recent-window.config.budgetShare')).toEqual([
      'plugins',
      'entries',
      'recent-window',
      'config',
      'budgetShare',
    ]);
    expect(parseConfigPath('plugins.entries["my.plugin"].config')).toEqual([
      'plugins',
      'entries',
      'my.plugin',
      'config',
    ]);
    expect(parseConfigPath("a['x y'][0].b")).toEqual(['a', 'x y', '0', 'b']);
    expect(formatConfigPath(['plugins', 'entries', 'my.plugin', 'config'])).toBe('plugins.entries["my.plugin"].config');
    expect(() => parseConfigPath('plugins..slots')).toThrow(
      'Invalid config path "plugins..slots" at character 9: a key is missing.',
    );
    expect(() => parseConfigPath('a["b')).toThrow('"[" is never closed');
    expect(() => parseConfigPath('')).toThrow('Empty config path');
  });
});

describe('lossless edits of a hand-kept openclaw.json', () => {
  it('changing the slot rewrites only that value: comments, quotes, commas and blank lines stay', () => {
    const after = edit(REAL, { op: 'set', path: ['plugins', 'slots', 'contextEngine'], value: 'recent-window' });
    expect(lineDelta(REAL, after)).toEqual({
      removed: ['      contextEngine: "legacy", // try recent-window here'],
      added: ['      contextEngine: "recent-window", // try recent-window here'],
    });
  });

  it('adding a key writes one line in the neighbours’ style; removing it gives the original back byte for byte', () => {
    const path = ['plugins', 'entries', 'recent-window', 'config', 'memoryNote'];
    const added = edit(REAL, { op: 'set', path, value: 'older turns were windowed out' });
    expect(lineDelta(REAL, added)).toEqual({
      removed: [],
      added: ['          memoryNote: "older turns were windowed out",'],
    });
    expect(edit(added, { op: 'unset', path })).toBe(REAL);
  });

  it('a new nested object is laid out with the file’s indent, bare keys and trailing commas', () => {
    const after = edit(REAL, {
      op: 'set',
      path: ['agents', 'defaults', 'compaction', 'qualityGuard'],
      value: { enabled: true, maxRetries: 2 },
    });
    expect(lineDelta(REAL, after).added).toEqual([
      '        qualityGuard: {',
      '          enabled: true,',
      '          maxRetries: 2,',
      '        },',
    ]);
    expect(JSON5.parse(after).agents.defaults.compaction).toEqual({
      mode: 'safeguard',
      reserveTokensFloor: 20000,
      qualityGuard: { enabled: true, maxRetries: 2 },
    });
  });

  it('one-line objects stay on one line; a strict JSON file stays JSON (quoted keys, no trailing comma)', () => {
    expect(edit('{ "a": { "b": 1 } }\n', { op: 'set', path: ['a', 'c'], value: [1, 2] })).toBe(
      '{ "a": { "b": 1, "c": [1, 2] } }\n',
    );
    const json = '{\n  "plugins": {\n    "slots": {}\n  }\n}\n';
    const after = edit(json, { op: 'set', path: ['plugins', 'slots', 'contextEngine'], value: 'x' });
    expect(after).toBe('{\n  "plugins": {\n    "slots": {\n      "contextEngine": "x"\n    }\n  }\n}\n');
    expect(JSON.parse(after)).toEqual({ plugins: { slots: { contextEngine: 'x' } } });
    expect(edit(after, { op: 'unset', path: ['plugins', 'slots', 'contextEngine'] })).toBe(
      '{\n  "plugins": {\n    "slots": {}\n  }\n}\n',
    );
  });

  it('removing the last entry takes the comma before it, and keeps a comment that was on its line', () => {
    const text = '{\n  a: 1,\n  b: 2 // about b\n}\n';
    expect(edit(text, { op: 'unset', path: ['b'] })).toBe('{\n  a: 1\n  // about b\n}\n');
    expect(edit('{ a: 1, b: 2 }', { op: 'unset', path: ['b'] })).toBe('{ a: 1 }');
  });

  it('refuses what it cannot do, saying what and where', () => {
    expect(() => edit(REAL, { op: 'set', path: ['gateway', 'port', 'x'], value: 1 })).toThrow(
      'cannot set gateway.port.x: gateway.port is a number (line 36, column 20), not an object',
    );
    expect(() => edit('{ a: 1, a: 2 }', { op: 'set', path: ['a'], value: 3 })).toThrow(
      'a is written 2 times (line 1, column 3; line 1, column 9); keep one by hand first',
    );
    expect(() => edit('{ a: [1] }', { op: 'set', path: ['a', '3'], value: 3 })).toThrow(ConfigEditError);
    expect(() => edit('{ a: ', { op: 'set', path: ['a'], value: 3 })).toThrow(
      /the file is not valid JSON5 \(line 1, column 6: invalid end of input\); fix it as text first/,
    );
  });

  it('strings json5 reads but the syntax tree’s own parser would refuse still edit', () => {
    const text = `{ say: 'he said "hi"', hex: '\\x41', n: 1 }`;
    const after = edit(text, { op: 'set', path: ['n'], value: 2 });
    expect(after).toBe(`{ say: 'he said "hi"', hex: '\\x41', n: 2 }`);
    expect(JSON5.parse(after)).toEqual({ say: 'he said "hi"', hex: 'A', n: 2 });
  });
});

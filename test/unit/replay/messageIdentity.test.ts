import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalContentHash, hashKeyOf, messageKeyOf } from '../../../src/replay';

/** JSON text of `value` with object keys sorted (recursive: for the shallow values fast-check makes). */
function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${sortedJson(record[k])}`);
  return `{${fields.join(',')}}`;
}

describe('message identity', () => {
  it('canonical JSON sorts keys at every level and drops undefined like JSON.stringify', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[3,{"z":1}]},"b":1}',
    );
    expect(canonicalJson([undefined, () => 1, NaN])).toBe('[null,null,null]');
  });

  it('is JSON.stringify with sorted keys for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(sortedJson(value));
      }),
      { numRuns: 300 },
    );
  });

  it('writes values nested 10,000 objects or 100,000 arrays deep without overflowing the stack', () => {
    let objects: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) objects = { nested: objects };
    expect(canonicalJson(objects)).toBe(`${'{"nested":'.repeat(10_000)}"bottom"${'}'.repeat(10_000)}`);
    const arrays: unknown = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(canonicalJson(arrays)).toHaveLength(200_000);
    expect(hashKeyOf(arrays)).toMatch(/^h:[0-9a-f]{16}$/);
  });

  it('a deep copy with reordered keys hashes the same; any content change does not', () => {
    const message = { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 5 };
    const copy = JSON.parse(JSON.stringify({ timestamp: 5, content: [{ text: 'hi', type: 'text' }], role: 'user' }));
    expect(canonicalContentHash(copy)).toBe(canonicalContentHash(message));
    expect(hashKeyOf(copy)).toBe(hashKeyOf(message));
    expect(hashKeyOf({ ...message, timestamp: 6 })).not.toBe(hashKeyOf(message));
  });

  it('content keys are "h:" plus 16 hex digits of sha1', () => {
    expect(hashKeyOf({ a: 1 })).toMatch(/^h:[0-9a-f]{16}$/);
    expect(hashKeyOf({ a: 1 })).toBe(`h:${canonicalContentHash({ a: 1 }).slice(0, 16)}`);
  });

  it('the entry id is the key when present, else the content key', () => {
    const message = { role: 'user', content: 'x', timestamp: 1 };
    expect(messageKeyOf(message, 'abc123')).toBe('abc123');
    expect(messageKeyOf(message, undefined)).toBe(hashKeyOf(message));
    expect(messageKeyOf(message, '')).toBe(hashKeyOf(message));
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash, hashKeyOf, messageKeyOf } from '../../../src/replay';

describe('message identity', () => {
  it('canonical JSON sorts keys at every level and drops undefined like JSON.stringify', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: undefined }], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[3,{"z":1}]},"b":1}',
    );
    expect(canonicalJson([undefined, () => 1, NaN])).toBe('[null,null,null]');
  });

  it('a deep copy with reordered keys hashes the same; any content change does not', () => {
    const message = { role: 'user', content: [{ type: 'text', text: 'hi' }], timestamp: 5 };
    const copy = JSON.parse(JSON.stringify({ timestamp: 5, content: [{ text: 'hi', type: 'text' }], role: 'user' }));
    expect(contentHash(copy)).toBe(contentHash(message));
    expect(hashKeyOf(copy)).toBe(hashKeyOf(message));
    expect(hashKeyOf({ ...message, timestamp: 6 })).not.toBe(hashKeyOf(message));
  });

  it('content keys are "h:" plus 16 hex digits of sha1', () => {
    expect(hashKeyOf({ a: 1 })).toMatch(/^h:[0-9a-f]{16}$/);
    expect(hashKeyOf({ a: 1 })).toBe(`h:${contentHash({ a: 1 }).slice(0, 16)}`);
  });

  it('the entry id is the key when present, else the content key', () => {
    const message = { role: 'user', content: 'x', timestamp: 1 };
    expect(messageKeyOf(message, 'abc123')).toBe('abc123');
    expect(messageKeyOf(message, undefined)).toBe(hashKeyOf(message));
    expect(messageKeyOf(message, '')).toBe(hashKeyOf(message));
  });
});

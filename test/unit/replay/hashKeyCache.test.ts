import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createHashKeyCache, hashKeyOf } from '../../../src/replay';

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const messageArb = fc.record({
  role: fc.constantFrom('user', 'assistant', 'toolResult'),
  timestamp: fc.constantFrom(1, 2, 3),
  content: jsonValue,
});

describe('createHashKeyCache', () => {
  it('answers hashKeyOf for every message, its deep copies and its edited copies, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(messageArb, fc.constantFrom('same', 'copy', 'edit', 'reorder')), { maxLength: 30 }),
        (steps) => {
          const cache = createHashKeyCache();
          const seen: object[] = [];
          for (const [message, how] of steps) {
            const base = seen.length > 0 && how !== 'same' ? seen[seen.length - 1]! : message;
            let value: object = base;
            if (how === 'copy') value = structuredClone(base);
            if (how === 'edit')
              value = { ...structuredClone(base), content: [(base as { content: unknown }).content, 'x'] };
            if (how === 'reorder') value = Object.fromEntries(Object.entries(structuredClone(base)).reverse());
            seen.push(value);
            expect(cache.keyOf(value)).toBe(hashKeyOf(value));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('does not take a copy with an undefined property, a toJSON, or a NaN for its twin', () => {
    const cache = createHashKeyCache();
    const original = { role: 'user', timestamp: 1, content: 'hi', n: 1 };
    expect(cache.keyOf(original)).toBe(hashKeyOf(original));
    const withUndefined = { role: 'user', timestamp: 1, content: 'hi', n: 1, extra: undefined };
    expect(cache.keyOf(withUndefined)).toBe(hashKeyOf(original));
    const withToJson = { role: 'user', timestamp: 1, content: 'hi', n: 1, toJSON: () => ({ other: true }) };
    expect(cache.keyOf(withToJson)).toBe(hashKeyOf({ other: true }));
    const withNaN = { role: 'user', timestamp: 1, content: 'hi', n: Number.NaN };
    expect(cache.keyOf(withNaN)).toBe(hashKeyOf({ role: 'user', timestamp: 1, content: 'hi', n: null }));
    expect(cache.keyOf({ role: 'user', timestamp: 1, content: 'hi', n: 2 })).not.toBe(hashKeyOf(original));
  });

  it('gives a deep copy of a remembered object the remembered key without hashing it', () => {
    const cache = createHashKeyCache();
    const reference = { role: 'assistant', timestamp: 7, content: [{ type: 'text', text: 'done' }] };
    cache.remember(reference, 'h:remembered');
    expect(cache.keyOf(structuredClone(reference))).toBe('h:remembered');
    const edited = { ...structuredClone(reference), content: [{ type: 'text', text: 'changed' }] };
    expect(cache.keyOf(edited)).toBe(hashKeyOf(edited));
  });

  it('computes a remembered key given as a function only when it is asked for, and once', () => {
    const cache = createHashKeyCache();
    const reference = { role: 'user', timestamp: 9, content: 'a question' };
    let calls = 0;
    cache.remember(reference, () => {
      calls++;
      return hashKeyOf(reference);
    });
    expect(calls).toBe(0);
    expect(cache.keyOf(structuredClone(reference))).toBe(hashKeyOf(reference));
    expect(cache.keyOf(reference)).toBe(hashKeyOf(reference));
    expect(cache.keyOf(structuredClone(reference))).toBe(hashKeyOf(reference));
    expect(calls).toBe(1);
  });

  it('hashes each object once: a later mutation of a hashed object does not change its key', () => {
    const cache = createHashKeyCache();
    const message = { role: 'user', timestamp: 1, content: 'before' };
    const key = cache.keyOf(message);
    message.content = 'after';
    expect(cache.keyOf(message)).toBe(key);
    expect(key).toBe(hashKeyOf({ role: 'user', timestamp: 1, content: 'before' }));
  });
});

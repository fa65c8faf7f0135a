import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundTokenCounter } from '../../../src/replay/backgroundTokenCounter';
import { countTokens } from '../../../src/tokens';

const SAMPLES = [
  'hello world',
  'const x = await fetch("https://example.com/api/v1?id=42");\n  return x.json();',
  '日本語のテキストと emoji 🎉🚀 mixed with English words.',
  // a pathological run without pre-token boundaries: counted in pieces, exactly as countTokens does
  'a'.repeat(300_000),
];

describe('BackgroundTokenCounter', () => {
  const counters: BackgroundTokenCounter[] = [];
  afterEach(async () => {
    await Promise.all(counters.splice(0).map((c) => c.close()));
  });

  it.each([true, false])('gives the same counts as countTokens (worker: %s), long runs included', async (useWorker) => {
    const counter = new BackgroundTokenCounter('o200k_base', { useWorker });
    counters.push(counter);
    for (const text of SAMPLES) counter.queue(text);
    counter.flushQueued();
    for (const text of SAMPLES) expect(await counter.count(text)).toBe(countTokens(text, 'o200k_base'));
    expect(counter.stats()).toEqual({ misses: SAMPLES.length, uniqueTexts: SAMPLES.length });
  });

  it('counts each distinct text once', async () => {
    const counter = new BackgroundTokenCounter('cl100k_base');
    counters.push(counter);
    await counter.ensure(['same text', 'same text', 'other']);
    await counter.ensure(['same text']);
    expect(counter.stats().misses).toBe(2);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import {
  BackgroundTokenCounter,
  hasSpareTokenWorker,
  prestartTokenWorker,
} from '../../../src/replay/recording/backgroundTokenCounter';
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
    expect(counter.stats()).toMatchObject({ misses: SAMPLES.length, uniqueTexts: SAMPLES.length });
  });

  it('takes a prestarted worker (one at most, its encoding already loaded) and counts exactly with it', async () => {
    prestartTokenWorker('cl100k_base');
    prestartTokenWorker('cl100k_base');
    expect(hasSpareTokenWorker()).toBe(true);
    const counter = new BackgroundTokenCounter('o200k_base');
    counters.push(counter);
    expect(hasSpareTokenWorker()).toBe(false);
    for (const text of SAMPLES) counter.queue(text);
    counter.flushQueued();
    for (const text of SAMPLES) expect(await counter.count(text)).toBe(countTokens(text, 'o200k_base'));
    // the next counter starts its own
    const next = new BackgroundTokenCounter('cl100k_base');
    counters.push(next);
    expect(await next.count(SAMPLES[1]!)).toBe(countTokens(SAMPLES[1]!, 'cl100k_base'));
  });

  it('counts each distinct text once', async () => {
    const counter = new BackgroundTokenCounter('cl100k_base');
    counters.push(counter);
    await counter.ensure(['same text', 'same text', 'other']);
    await counter.ensure(['same text']);
    expect(counter.stats().misses).toBe(2);
  });

  it.each([true, false])(
    'counts a line shared by several texts once, and each text exactly (worker: %s)',
    async (useWorker) => {
      const counter = new BackgroundTokenCounter('o200k_base', { useWorker });
      counters.push(counter);
      const kept = Array.from({ length: 40 }, (_, i) => `- decision ${i}: keep the cache at src/file${i}.ts\n`).join(
        '',
      );
      const summaries = Array.from(
        { length: 5 },
        (_, i) => `## Summary ${i}\n${kept}- new fact ${i}\n  indented detail ${i}\n`,
      );
      for (const text of summaries) counter.queue(text);
      counter.flushQueued();
      await counter.ensure(summaries);
      for (const text of summaries) expect(counter.peek(text)).toBe(countTokens(text, 'o200k_base'));
      const distinctLines = new Set(summaries.flatMap((t) => t.split(/(?<=\n)(?=[^\s/])/u)));
      expect(counter.stats()).toMatchObject({ misses: 5, linesTokenized: distinctLines.size });
      expect(counter.stats().charsTokenized).toBe([...distinctLines].reduce((n, l) => n + l.length, 0));
      expect(counter.stats().charsTokenized).toBeLessThan(summaries.reduce((n, t) => n + t.length, 0) / 3);
    },
  );
});

import { describe, expect, it } from 'vitest';
import { laneLlmComplete } from '../../../src/replay/lane/laneLlm';
import { createDeterministicSummarizer } from '../../../src/summarize';
import {
  DATA_ONLY_DECODE,
  DATA_ONLY_ENCODE,
  WireFormatError,
  decodeWire,
  encodeWire,
} from '../../../src/plugins/host/wireCodec';

/** encode → JSON text → decode, as the IPC channel does */
function roundTrip(value: unknown): unknown {
  const json = JSON.stringify(encodeWire(value, DATA_ONLY_ENCODE));
  return decodeWire(JSON.parse(json), DATA_ONLY_DECODE);
}

describe('wire codec', () => {
  it('keeps Sets, Maps and nested Sets as such', () => {
    const out = roundTrip({ tools: new Set(['read', 'write']), index: new Map([['k', new Set([1, 2])]]) }) as {
      tools: Set<string>;
      index: Map<string, Set<number>>;
    };
    expect(out.tools).toBeInstanceOf(Set);
    expect([...out.tools]).toEqual(['read', 'write']);
    expect(out.index).toBeInstanceOf(Map);
    expect([...out.index.get('k')!]).toEqual([1, 2]);
  });

  it('keeps undefined as an own property and inside arrays', () => {
    const out = roundTrip({ a: undefined, list: [1, undefined, 3] }) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(out, 'a')).toBe(true);
    expect(out.a).toBeUndefined();
    expect(out.list).toEqual([1, undefined, 3]);
    expect((out.list as unknown[]).length).toBe(3);
  });

  it('keeps non-finite numbers, -0, bigint, Date and RegExp', () => {
    const out = roundTrip([NaN, Infinity, -Infinity, -0, 10n, new Date(0), /a+b/gi]) as unknown[];
    expect(out[0]).toBeNaN();
    expect(out[1]).toBe(Infinity);
    expect(out[2]).toBe(-Infinity);
    expect(Object.is(out[3], -0)).toBe(true);
    expect(out[4]).toBe(10n);
    expect((out[5] as Date).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(String(out[6])).toBe('/a+b/gi');
  });

  it('keeps an error name, message, code, cause and own props like zod issues', () => {
    const cause = new TypeError('inner');
    const error = Object.assign(new Error('outer', { cause }), {
      code: 'E_X',
      issues: [{ code: 'unrecognized_keys', keys: ['runtimeSettings'] }],
    });
    error.name = 'ZodError';
    const out = roundTrip(error) as Error & { code: string; issues: unknown[]; cause: Error };
    expect(out).toBeInstanceOf(Error);
    expect(out.name).toBe('ZodError');
    expect(out.message).toBe('outer');
    expect(out.code).toBe('E_X');
    expect(out.issues).toEqual([{ code: 'unrecognized_keys', keys: ['runtimeSettings'] }]);
    expect(out.cause).toBeInstanceOf(Error);
    expect(out.cause.name).toBe('TypeError');
    expect(out.stack).toBe(error.stack);
  });

  it('keeps the errors of an AggregateError', () => {
    const out = roundTrip(new AggregateError([new Error('a'), new Error('b')], 'both')) as { errors: Error[] };
    expect(out.errors.map((e) => e.message)).toEqual(['a', 'b']);
  });

  it('escapes a plain object that owns the tag key', () => {
    const out = roundTrip({ $cs: 'set', values: [1] });
    expect(out).toEqual({ $cs: 'set', values: [1] });
    expect(out).not.toBeInstanceOf(Set);
  });

  it('refuses circular structures with the path', () => {
    const a: Record<string, unknown> = { b: {} };
    (a.b as Record<string, unknown>).back = a;
    expect(() => encodeWire(a, DATA_ONLY_ENCODE)).toThrow(new WireFormatError('circular structure at $.b.back'));
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(roundTrip({ a: shared, b: shared })).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });

  it('rejects malformed trees instead of trusting them', () => {
    expect(() => decodeWire({ $cs: 'nope' }, DATA_ONLY_DECODE)).toThrow('unknown wire tag "nope"');
    expect(() => decodeWire({ $cs: 'set', values: 'x' }, DATA_ONLY_DECODE)).toThrow('set node values must be an array');
    expect(() => decodeWire({ $cs: 'bigint', value: '1e3' }, DATA_ONLY_DECODE)).toThrow(
      'bigint node value must be an integer string',
    );
    expect(() => decodeWire({ $cs: 'fn', id: 1, side: 'parent' }, DATA_ONLY_DECODE)).toThrow(
      'function reference 1 is unknown',
    );
  });

  it('keeps a hostile "__proto__" key as data without touching prototypes', () => {
    const out = decodeWire(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'), DATA_ONLY_DECODE) as Record<
      string,
      unknown
    >;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(out)).toEqual(['__proto__', 'a']);
  });

  it('keeps a "__proto__" key whose value decodes to something else as data too (decoding writes in place)', () => {
    const out = decodeWire(JSON.parse('{"inner": {"__proto__": {"$cs": "set", "values": [1]}}}'), DATA_ONLY_DECODE) as {
      inner: Record<string, unknown>;
    };
    expect(Object.getPrototypeOf(out.inner)).toBe(Object.prototype);
    const own = Object.getOwnPropertyDescriptor(out.inner, '__proto__');
    expect(own?.value).toBeInstanceOf(Set);
    expect([...(own!.value as Set<number>)]).toEqual([1]);
  });

  it('decodes a parsed tree in place and refuses objects that are not plain data', () => {
    const parsed = JSON.parse('{"list": [{"a": {"$cs": "undefined"}}, "x"], "n": {"$cs": "number", "value": "NaN"}}');
    const list = parsed.list;
    const out = decodeWire(parsed, DATA_ONLY_DECODE) as { list: Record<string, unknown>[]; n: number };
    expect(out).toBe(parsed);
    expect(out.list).toBe(list);
    expect(Object.prototype.hasOwnProperty.call(out.list[0], 'a')).toBe(true);
    expect(out.list[0]!.a).toBeUndefined();
    expect(out.n).toBeNaN();
    class Smuggled {
      field = 1;
    }
    expect(() => decodeWire({ nested: new Smuggled() }, DATA_ONLY_DECODE)).toThrow('wire objects must be plain data');
  });

  describe('plain JSON subtrees from the app ("json" nodes)', () => {
    const APP = { ...DATA_ONLY_ENCODE, side: 'parent' as const };
    const HOST_DECODE = { ...DATA_ONLY_DECODE, side: 'child' as const };
    const message = {
      role: 'toolResult',
      toolCallId: 'call_1',
      content: [{ type: 'text', text: 'ok' }],
      details: { exitCode: 0, lines: [1, 2, 3] },
    };

    it("sends a plain subtree as the app's own object, and the engine host gets it back as it was", () => {
      const params = { runtimeContext: { complete: () => 1, settings: message }, flag: true };
      const encoded = encodeWire(params, { ...APP, exportFunction: () => 7 }) as {
        runtimeContext: { settings: { $cs: string; value: unknown } };
      };
      expect(encoded.runtimeContext.settings.$cs).toBe('json');
      expect(encoded.runtimeContext.settings.value).toBe(message);
      const decoded = decodeWire(JSON.parse(JSON.stringify(encoded)), {
        ...HOST_DECODE,
        importFunction: () => async () => 1,
      }) as typeof params;
      expect(decoded.runtimeContext.settings).toEqual(message);
      expect(typeof decoded.runtimeContext.complete).toBe('function');
    });

    it('walks subtrees JSON would not carry exactly (undefined, NaN, -0, Sets, a $cs key) as before', () => {
      const big = (extra: Record<string, unknown>) => ({ ...message, ...extra });
      for (const value of [
        big({ gone: undefined }),
        big({ n: NaN }),
        big({ z: -0 }),
        big({ tools: new Set(['a']) }),
        big({ $cs: 'x' }),
        [1, 2, 3, undefined, 5, 6, 7, 8],
      ]) {
        const encoded = encodeWire(value, APP);
        expect(JSON.stringify(encoded)).not.toContain('"$cs":"json","value"');
        const decoded = decodeWire(JSON.parse(JSON.stringify(encoded)), HOST_DECODE);
        expect(decoded).toEqual(value);
        if (!Array.isArray(value) && 'gone' in value)
          expect(Object.prototype.hasOwnProperty.call(decoded, 'gone')).toBe(true);
      }
    });

    it('sends small plain objects of the app as they are, and copies what the engine host sends', () => {
      const small = { a: 1 };
      expect((encodeWire({ small, f: undefined }, APP) as { small: unknown }).small).toBe(small);
      expect((encodeWire({ small, f: undefined }, DATA_ONLY_ENCODE) as { small: unknown }).small).not.toBe(small);
      expect((encodeWire({ small, f: undefined }, DATA_ONLY_ENCODE) as { small: unknown }).small).toEqual(small);
    });

    it('is never sent by the engine host, and the app refuses one from it', () => {
      expect(JSON.stringify(encodeWire(message, DATA_ONLY_ENCODE))).not.toContain('"json"');
      const hostile = { $cs: 'json', value: { $cs: 'fn', id: 1, side: 'parent' } };
      expect(() => decodeWire(hostile, DATA_ONLY_DECODE)).toThrow('json nodes are accepted only from the app');
      expect(() => decodeWire({ $cs: 'json' }, HOST_DECODE)).toThrow('json node without a value');
    });
  });

  describe('functions the engine host provides itself ("provided" nodes)', () => {
    const APP = { ...DATA_ONLY_ENCODE, side: 'parent' as const };
    const HOST_DECODE = { ...DATA_ONLY_DECODE, side: 'child' as const };
    const params = {
      messages: [{ role: 'user' as const, content: 'Summarize: we chose SQLite for sessions; next, migrate the CLI.' }],
      maxTokens: 200,
    };

    it("sends the offline summarizer's complete by name, and the host's copy answers as the app's would", async () => {
      const appLlm = { complete: laneLlmComplete(createDeterministicSummarizer()) };
      const exported: unknown[] = [];
      const encoded = encodeWire({ llm: appLlm }, { ...APP, exportFunction: (fn) => exported.push(fn) });
      expect(encoded).toEqual({ llm: { complete: { $cs: 'provided', name: 'deterministic-summarizer.complete' } } });
      expect(exported).toEqual([]);
      const decoded = decodeWire(JSON.parse(JSON.stringify(encoded)), HOST_DECODE) as { llm: typeof appLlm };
      expect(decoded.llm.complete.name).toBe('complete');
      expect(await decoded.llm.complete(params)).toEqual(await appLlm.complete(params));
    });

    it('sends any other summarizer as a callback into the app', () => {
      const custom = { ...createDeterministicSummarizer() };
      const encoded = encodeWire({ complete: laneLlmComplete(custom) }, { ...APP, exportFunction: () => 4 });
      expect(encoded).toEqual({ complete: { $cs: 'fn', id: 4, side: 'parent', name: 'complete' } });
    });

    it('is never sent by the engine host; the app refuses one, the host refuses a name it does not provide', () => {
      const marked = laneLlmComplete(createDeterministicSummarizer());
      expect(encodeWire(marked, { ...DATA_ONLY_ENCODE, exportFunction: () => 2 })).toMatchObject({ $cs: 'fn', id: 2 });
      const node = { $cs: 'provided', name: 'deterministic-summarizer.complete' };
      expect(() => decodeWire(node, DATA_ONLY_DECODE)).toThrow('provided nodes are accepted only from the app');
      expect(() => decodeWire({ $cs: 'provided', name: 'toString' }, HOST_DECODE)).toThrow(
        'the engine host provides no function named "toString"',
      );
      expect(() => decodeWire({ $cs: 'provided', name: 3 }, HOST_DECODE)).toThrow(
        'provided function name must be a string',
      );
    });
  });
});

/**
 * Random JSON5 documents for the property tests: a value tree written out with random layout — one-line or
 * multi-line containers, trailing commas or not, bare / double / single-quoted keys, either string quote, line and
 * block comments before and after items, blank lines, two-space / four-space / tab indents.
 */
import fc from 'fast-check';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const KEYS = ['a', 'b', 'plugins', 'my-key', 'x y', '$z', '_q', 'Ω', "it's", 'a.b', '0'];
const STRINGS = ['', 'legacy', 'with "quotes"', "it's", 'line\nbreak', 'tab\t', 'ünï'];

export const jsonValue: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -1000, max: 100000 }),
    fc.constantFrom(0.5, 1e21, -0.25),
    fc.constantFrom(...STRINGS),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 5 }),
  ),
})).value;

export const jsonObject: fc.Arbitrary<Record<string, Json>> = fc.dictionary(fc.constantFrom(...KEYS), jsonValue, {
  minKeys: 0,
  maxKeys: 6,
});

/** mulberry32: the layout choices of one document, reproducible from its seed */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let commentCounter = 0;

function quote(text: string, q: '"' | "'"): string {
  const json = JSON.stringify(text);
  return q === '"' ? json : `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function key(k: string, rnd: () => number): string {
  const r = rnd();
  if (/^[A-Za-z_$][\w$]*$/.test(k) && r < 0.5) return k;
  return quote(k, r < 0.75 ? '"' : "'");
}

function comment(multiline: boolean, rnd: () => number): string {
  const n = ++commentCounter;
  return multiline && rnd() < 0.6 ? `// note ${n}` : `/* note ${n} */`;
}

export function render(value: Json, rnd: () => number, indent: string, unit: string): string {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' ? quote(value, rnd() < 0.5 ? '"' : "'") : JSON.stringify(value);
  }
  const isArray = Array.isArray(value);
  const entries: [string | null, Json][] = isArray
    ? value.map((v) => [null, v])
    : Object.entries(value).map(([k, v]) => [k, v]);
  const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return rnd() < 0.2 ? `${open} ${close}` : `${open}${close}`;
  const multiline = rnd() < 0.6;
  const trailing = rnd() < 0.5;
  const inner = indent + unit;
  const parts = entries.map(([k, v], i) => {
    const body = `${k === null ? '' : `${key(k, rnd)}: `}${render(v, rnd, multiline ? inner : indent, unit)}`;
    const comma = i < entries.length - 1 || trailing ? ',' : '';
    if (!multiline) return `${rnd() < 0.15 ? `${comment(false, rnd)} ` : ''}${body}${comma}`;
    const before = rnd() < 0.25 ? `${inner}${comment(true, rnd)}\n` : '';
    const blank = rnd() < 0.15 ? '\n' : '';
    const after = rnd() < 0.25 ? ` ${comment(true, rnd)}` : '';
    return `${blank}${before}${inner}${body}${comma}${after}`;
  });
  if (!multiline) return `${open}${rnd() < 0.5 ? ' ' : ''}${parts.join(' ')}${rnd() < 0.5 ? ' ' : ''}${close}`;
  return `${open}\n${parts.join('\n')}\n${indent}${close}`;
}

/** A whole file: optional leading and trailing comments around the rendered root object. */
export function renderDocument(value: Record<string, Json>, seed: number): string {
  const rnd = random(seed);
  const unit = ['  ', '    ', '\t'][Math.floor(rnd() * 3)]!;
  const head = rnd() < 0.5 ? `// openclaw.json ${seed}\n` : '';
  const tail = rnd() < 0.3 ? '\n// end\n' : '\n';
  return `${head}${render(value, rnd, '', unit)}${tail}`;
}

/** Every path that exists in `value` (object keys and array indexes), parents before children. */
export function pathsOf(value: Json, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object') return [];
  const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
  return keys.flatMap((k) => {
    const child = (value as Record<string, Json>)[k]!;
    return [[...prefix, k], ...pathsOf(child, [...prefix, k])];
  });
}

/** Paths of containers (where a new key or element can be added), the root included. */
export function containersOf(value: Json, prefix: string[] = []): { path: string[]; value: Json }[] {
  if (value === null || typeof value !== 'object') return [];
  const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value);
  return [
    { path: prefix, value },
    ...keys.flatMap((k) => containersOf((value as Record<string, Json>)[k]!, [...prefix, k])),
  ];
}

/**
 * Property: on random JSON5 documents with comments and random layout, a random set/unset (1–3 in a row) gives a
 * text that parses to the expected value, changes bytes only inside the edited entry's room (between its
 * neighbours), and keeps every comment outside the replaced value.
 */
import {
  JsonArrayNode,
  JsonObjectNode,
  JsonPropertyNode,
  JsonTokenType,
  type JsonNode,
  type JsonValueNode,
} from '@croct/json5-parser';
import fc from 'fast-check';
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { keyOf, parseJson5Document } from '../../../src/config/json5Document';
import { applyToValue, editText, type ValueEdit } from '../../../src/config/json5Edit';
import { containersOf, jsonValue, jsonObject, pathsOf, renderDocument, type Json } from './json5Documents';

let source = '';

function childOf(node: JsonValueNode, key: string): JsonNode | undefined {
  if (node instanceof JsonObjectNode) return node.properties.find((p) => keyOf(source, p) === key);
  if (node instanceof JsonArrayNode) return node.elements[Number(key)];
  return undefined;
}

function valueOf(item: JsonNode): JsonValueNode {
  return (item instanceof JsonPropertyNode ? item.value : item) as JsonValueNode;
}

function nodeAt(root: JsonValueNode, path: readonly string[]): { container: JsonValueNode; item?: JsonNode } {
  let container = root;
  for (let i = 0; i < path.length - 1; i++) container = valueOf(childOf(container, path[i]!)!);
  return { container, item: path.length ? childOf(container, path.at(-1)!) : undefined };
}

function items(container: JsonValueNode): JsonNode[] {
  if (container instanceof JsonObjectNode) return container.properties;
  if (container instanceof JsonArrayNode) return [...container.elements];
  return [];
}

/** [start, end) of the text an edit may touch. */
function room(root: JsonValueNode, edit: ValueEdit): [number, number] {
  const { container, item } = nodeAt(root, edit.path);
  if (edit.op === 'set' && item) {
    const value = valueOf(item);
    return [value.location.start.index, value.location.end.index];
  }
  const list = items(container);
  const children = (container as JsonObjectNode).children;
  const open = children.find(
    (c) => 'type' in c && [JsonTokenType.BRACE_LEFT, JsonTokenType.BRACKET_LEFT].includes((c as any).type),
  )!;
  const close = [...children]
    .reverse()
    .find((c) => 'type' in c && [JsonTokenType.BRACE_RIGHT, JsonTokenType.BRACKET_RIGHT].includes((c as any).type))!;
  if (!item) return [list.at(-1)?.location.end.index ?? open.location.end.index, close.location.start.index];
  const at = list.indexOf(item);
  const start = at > 0 ? list[at - 1]!.location.end.index : open.location.end.index;
  const end = at < list.length - 1 ? list[at + 1]!.location.start.index : close.location.start.index;
  return [start, end];
}

function comments(text: string, skip: [number, number] | null): Map<string, number> {
  const found = new Map<string, number>();
  const doc = parseJson5Document(text);
  if (!doc.ok || !doc.root) return found;
  const visit = (node: JsonNode) => {
    const t = node as unknown as { type?: string; value?: string; children?: JsonNode[] };
    if ((t.type === JsonTokenType.LINE_COMMENT || t.type === JsonTokenType.BLOCK_COMMENT) && t.value) {
      const inside = skip && node.location.start.index >= skip[0] && node.location.end.index <= skip[1];
      if (!inside) found.set(t.value, (found.get(t.value) ?? 0) + 1);
    }
    for (const child of t.children ?? []) visit(child);
  };
  visit(doc.root);
  // comments outside the root object (file head and tail)
  for (const m of text.slice(0, doc.root.location.start.index).match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [])
    found.set(m, (found.get(m) ?? 0) + 1);
  for (const m of text.slice(doc.root.location.end.index).match(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g) ?? [])
    found.set(m, (found.get(m) ?? 0) + 1);
  return found;
}

const editArbitrary = (value: Json) =>
  fc.oneof(
    ...(pathsOf(value).length
      ? [
          fc.record({ op: fc.constant('unset' as const), path: fc.constantFrom(...pathsOf(value)) }),
          fc.record({ op: fc.constant('set' as const), path: fc.constantFrom(...pathsOf(value)), value: jsonValue }),
        ]
      : []),
    fc
      .tuple(fc.constantFrom(...containersOf(value)), fc.constantFrom('fresh', 'new-key', 'b'), jsonValue)
      .map(([c, k, v]): ValueEdit => {
        const key = Array.isArray(c.value) ? String(c.value.length) : k;
        return { op: 'set', path: [...c.path, key], value: v };
      }),
  );

function checkEdit(text: string, edit: ValueEdit): string {
  const doc = parseJson5Document(text);
  if (!doc.ok || !doc.root) throw new Error(`generated document does not parse:\n${text}`);
  source = text;
  const next = editText(doc, edit);
  expect(JSON5.parse(next)).toEqual(applyToValue(doc.value, edit));
  const [from, to] = room(doc.root, edit);
  // everything before the entry's room and after it is still there, byte for byte
  const show = `room [${from}, ${to})\n${text}\n=>\n${next}`;
  expect(next.startsWith(text.slice(0, from)), show).toBe(true);
  expect(next.endsWith(text.slice(to)), show).toBe(true);
  expect(next.length, show).toBeGreaterThanOrEqual(from + text.length - to);
  const replaced = nodeAt(doc.root, edit.path).item;
  const skip: [number, number] | null = replaced ? [replaced.location.start.index, replaced.location.end.index] : null;
  const before = comments(text, skip);
  const after = comments(next, null);
  for (const [c, n] of before)
    expect(after.get(c) ?? 0, `comment ${c} lost\n${text}\n=>\n${next}`).toBeGreaterThanOrEqual(n);
  return next;
}

describe('lossless JSON5 edits (property)', () => {
  it('random documents × random edits: expected value, bytes outside the entry unchanged, comments kept', () => {
    fc.assert(
      fc.property(
        jsonObject.chain((value) =>
          fc.tuple(
            fc.constant(value),
            fc.integer({ min: 1, max: 2 ** 31 - 1 }),
            fc.array(editArbitrary(value), { minLength: 1, maxLength: 1 }),
          ),
        ),
        ([value, seed, [first]]) => {
          const text = renderDocument(value, seed);
          checkEdit(text, first!);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('edits in a row: each on the text the previous one produced', () => {
    fc.assert(
      fc.property(
        jsonObject,
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.array(fc.nat(), { minLength: 2, maxLength: 4 }),
        (value, seed, picks) => {
          let text = renderDocument(value, seed);
          let current: Json = value;
          for (const pick of picks) {
            const edit = fc.sample(editArbitrary(current), { numRuns: 1, seed: pick })[0]!;
            text = checkEdit(text, edit);
            current = JSON5.parse(text) as Json;
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

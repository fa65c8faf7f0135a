/**
 * One JSON5 text, parsed twice: by `json5` for its value (what OpenClaw reads) and by `@croct/json5-parser` for its
 * concrete syntax tree (every token with its offset), which the lossless editor splices. A text that json5 refuses
 * gives its line and column; one that json5 reads but the syntax tree cannot follow can be read but not edited.
 */
import {
  JsonArrayNode,
  JsonIdentifierNode,
  JsonLexer,
  JsonObjectNode,
  JsonParser,
  JsonTokenType,
  type JsonPropertyNode,
  type JsonValueNode,
} from '@croct/json5-parser';
import JSON5 from 'json5';
import { errorMessage } from '../common';
import { isIndex, type ConfigPath } from './configPath';

export interface Json5SyntaxProblem {
  message: string;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
}

export type Json5Document =
  | { ok: true; text: string; value: unknown; root: JsonValueNode | null; editProblem?: string }
  | { ok: false; text: string; problem: Json5SyntaxProblem };

interface Json5Error extends Error {
  lineNumber?: number;
  columnNumber?: number;
}

export function parseJson5Document(text: string): Json5Document {
  let value: unknown;
  try {
    value = JSON5.parse(text);
  } catch (error) {
    const e = error as Json5Error;
    return {
      ok: false,
      text,
      problem: {
        message: errorMessage(error)
          .replace(/^JSON5: /, '')
          .replace(/ at \d+:\d+$/, ''),
        line: e.lineNumber ?? 1,
        column: e.columnNumber ?? 1,
      },
    };
  }
  try {
    return { ok: true, text, value, root: JsonParser.parse(withPlainStrings(text)) };
  } catch (error) {
    return {
      ok: true,
      text,
      value,
      root: null,
      editProblem: `the file reads as JSON5 but its layout cannot be edited losslessly (${errorMessage(error)}); edit it as text`,
    };
  }
}

/**
 * The text with every string's content replaced by as many letters, quotes kept: the syntax tree then has the same
 * offsets while its parser never decodes a string (it refuses some valid JSON5 ones, e.g. 'say "hi"' or '\x41').
 * Keys are read from the original text (keyOf); values always come from json5.
 */
function withPlainStrings(text: string): string {
  const parts: string[] = [];
  let at = 0;
  for (const token of JsonLexer.tokenize(text)) {
    if (token.type !== JsonTokenType.STRING) continue;
    const { index: start } = token.location.start;
    const end = token.location.end.index;
    const quote = text[start]!;
    parts.push(text.slice(at, start), quote, 's'.repeat(Math.max(0, end - start - 2)), quote);
    at = end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}

const keyCache = new WeakMap<JsonPropertyNode, string>();

/** The key of `property` as json5 reads it (from the original `text`, whose offsets the tree shares). */
export function keyOf(text: string, property: JsonPropertyNode): string {
  const cached = keyCache.get(property);
  if (cached !== undefined) return cached;
  const raw = text.slice(property.key.location.start.index, property.key.location.end.index);
  const key =
    property.key instanceof JsonIdentifierNode
      ? Object.keys(JSON5.parse(`{${raw}:0}`) as object)[0]!
      : (JSON5.parse(raw) as string);
  keyCache.set(property, key);
  return key;
}

/** 1-based line and column of an offset. */
export function lineColumnAt(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < index && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: index - lineStart + 1 };
}

/** The properties of `object` named `key` (more than one when the file repeats a key; the last one wins). */
export function propertiesNamed(text: string, object: JsonObjectNode, key: string): JsonPropertyNode[] {
  return object.properties.filter((property) => keyOf(text, property) === key);
}

export interface LocatedNode {
  /** the deepest node of the path that exists in the text */
  node: JsonValueNode;
  /** how many keys of the path it covers (path.length when the whole path exists) */
  depth: number;
}

/** Walks `path` through the syntax tree as far as the text goes. */
export function locateNode(text: string, root: JsonValueNode, path: ConfigPath): LocatedNode {
  let node = root;
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth]!;
    let next: JsonValueNode | undefined;
    if (node instanceof JsonObjectNode) next = propertiesNamed(text, node, key).at(-1)?.value;
    else if (node instanceof JsonArrayNode && isIndex(key)) next = node.elements[Number(key)];
    if (!next) return { node, depth };
    node = next;
  }
  return { node, depth: path.length };
}

/** Line and column of where `path` is written (or of its deepest written ancestor). */
export function locatePath(doc: Json5Document, path: ConfigPath): { line: number; column: number } | undefined {
  if (!doc.ok || !doc.root) return undefined;
  const { node } = locateNode(doc.text, doc.root, path);
  return lineColumnAt(doc.text, node.location.start.index);
}

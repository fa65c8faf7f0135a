/**
 * The house style of a JSON5 file — indent unit, line ending, how keys and strings are quoted, trailing commas —
 * learnt from its syntax tree, and new values written in that style, so an inserted entry looks like its
 * neighbours.
 */
import {
  JsonIdentifierNode,
  JsonObjectNode,
  JsonArrayNode,
  JsonPrimitiveNode,
  JsonTokenNode,
  JsonTokenType,
  type JsonNode,
  type JsonValueNode,
} from '@croct/json5-parser';
import { isRecord } from '../common';

export interface Json5Style {
  indentUnit: string;
  newline: '\n' | '\r\n';
  /** keys that are valid identifiers are written bare (the file already does so) */
  bareKeys: boolean;
  /** the quote of string values */
  quote: '"' | "'";
  /** the quote of keys that need (or, without bareKeys, get) quotes */
  keyQuote: '"' | "'";
  /** multi-line objects and arrays end with a comma */
  trailingComma: boolean;
}

export const DEFAULT_STYLE: Json5Style = {
  indentUnit: '  ',
  newline: '\n',
  bareKeys: false,
  quote: '"',
  keyQuote: '"',
  trailingComma: false,
};

function* walk(node: JsonNode): Generator<JsonNode> {
  yield node;
  const children = (node as { children?: JsonNode[] }).children;
  if (Array.isArray(children)) for (const child of children) yield* walk(child);
}

/** The style of `text` (parsed as `root`); what the file does not show falls back to two-space JSON. */
export function detectStyle(text: string, root: JsonValueNode | null): Json5Style {
  const style: Json5Style = { ...DEFAULT_STYLE, newline: text.includes('\r\n') ? '\r\n' : '\n' };
  if (!root) return style;
  const indents: string[] = [];
  let sawIdentifierKey = false;
  let quote: '"' | "'" | undefined;
  let keyQuote: '"' | "'" | undefined;
  let trailing = 0;
  let closings = 0;
  for (const node of walk(root)) {
    if (node instanceof JsonObjectNode) {
      for (const property of node.properties) {
        if (property.key instanceof JsonIdentifierNode) sawIdentifierKey = true;
        else if (!keyQuote) keyQuote = property.key.token.value[0] === "'" ? "'" : '"';
      }
    }
    if (node instanceof JsonPrimitiveNode && node.token.type === JsonTokenType.STRING && !quote) {
      const first = node.token.value[0];
      if (first === '"' || first === "'") quote = first;
    }
    if ((node instanceof JsonObjectNode || node instanceof JsonArrayNode) && isMultiline(node)) {
      closings++;
      if (endsWithComma(node)) trailing++;
    }
    const children = (node as { children?: JsonNode[] }).children ?? [];
    for (let i = 0; i + 1 < children.length; i++) {
      const a = children[i];
      const b = children[i + 1];
      if (isToken(a, JsonTokenType.NEWLINE) && isToken(b, JsonTokenType.WHITESPACE)) indents.push(b.value);
    }
  }
  style.indentUnit = indentUnitOf(indents);
  style.bareKeys = sawIdentifierKey;
  style.quote = quote ?? keyQuote ?? '"';
  style.keyQuote = keyQuote ?? quote ?? '"';
  style.trailingComma = closings > 0 && trailing * 2 > closings;
  return style;
}

export function isToken(node: JsonNode | undefined, type: JsonTokenType): node is JsonTokenNode {
  return node instanceof JsonTokenNode && node.type === type;
}

function isMultiline(node: JsonObjectNode | JsonArrayNode): boolean {
  return node.children.some((child) => isToken(child, JsonTokenType.NEWLINE));
}

/** `{ a: 1, }`: the last significant token before the closing bracket is a comma. */
export function endsWithComma(node: JsonObjectNode | JsonArrayNode): boolean {
  const significant = node.children.filter(
    (child) =>
      !isToken(child, JsonTokenType.WHITESPACE) &&
      !isToken(child, JsonTokenType.NEWLINE) &&
      !isToken(child, JsonTokenType.LINE_COMMENT) &&
      !isToken(child, JsonTokenType.BLOCK_COMMENT),
  );
  return isToken(significant.at(-2), JsonTokenType.COMMA);
}

function indentUnitOf(indents: string[]): string {
  if (indents.some((i) => i.startsWith('\t'))) return '\t';
  const widths = indents.map((i) => i.length).filter((w) => w > 0);
  if (widths.length === 0) return DEFAULT_STYLE.indentUnit;
  const gcd = widths.reduce((a, b) => {
    let [x, y] = [a, b];
    while (y) [x, y] = [y, x % y];
    return x;
  });
  return ' '.repeat(Math.min(Math.max(gcd, 1), 8));
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function formatKey(key: string, style: Json5Style): string {
  if (style.bareKeys && IDENTIFIER.test(key)) return key;
  return quoteString(key, style.keyQuote);
}

export function formatString(value: string, style: Json5Style): string {
  return quoteString(value, style.quote);
}

function quoteString(value: string, quote: '"' | "'"): string {
  const json = JSON.stringify(value);
  if (quote === '"') return json;
  // the same escapes, single-quoted: \" needs none, a bare ' does
  return `'${json.slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

function formatPrimitive(value: unknown, style: Json5Style): string {
  if (typeof value === 'string') return formatString(value, style);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (typeof value === 'boolean' || value === null) return String(value);
  throw new TypeError(`cannot write a ${typeof value} into a JSON5 file`);
}

/**
 * `value` as JSON5 text in `style`. `indent` is the indentation of the line the value starts on (nested lines get
 * one more unit); `inline` writes objects and arrays on one line (for a one-line parent).
 */
export function formatValue(value: unknown, style: Json5Style, indent: string, inline = false): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const simple = value.every((v) => v === null || typeof v !== 'object');
    const items = value.map((v) => formatValue(v, style, indent + style.indentUnit, inline));
    const flat = `[${items.join(', ')}]`;
    if (inline || (simple && flat.length <= 80)) return flat;
    return block('[', ']', items, style, indent);
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    const items = entries.map(
      ([k, v]) => `${formatKey(k, style)}: ${formatValue(v, style, indent + style.indentUnit, inline)}`,
    );
    if (inline) return `{ ${items.join(', ')} }`;
    return block('{', '}', items, style, indent);
  }
  return formatPrimitive(value, style);
}

function block(open: string, close: string, items: string[], style: Json5Style, indent: string): string {
  const inner = indent + style.indentUnit;
  const nl = style.newline;
  return `${open}${nl}${items.map((item) => `${inner}${item}`).join(`,${nl}`)}${style.trailingComma ? ',' : ''}${nl}${indent}${close}`;
}

/** The whitespace at the start of the line that holds `index`. */
export function indentOfLine(text: string, index: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, index));
  return match ? match[0] : '';
}

/**
 * Lossless edits of a JSON5 text: setting or removing one value is a splice of the text at that value (and its
 * separator), so every comment, key order, quote style, trailing comma and blank line elsewhere stays
 * byte-identical. New entries are written in the file's own style (json5Style.ts). Every result is parsed again and
 * compared with the value the edit should give; a mismatch is an error, never a write.
 */
import { JsonArrayNode, JsonObjectNode, JsonTokenType, type JsonNode, type JsonValueNode } from '@croct/json5-parser';
import { isRecord } from '../common';
import { formatConfigPath, isIndex, type ConfigPath } from './configPath';
import { lineColumnAt, parseJson5Document, propertiesNamed, type Json5Document } from './json5Document';
import { detectStyle, formatKey, formatValue, indentOfLine, isToken, type Json5Style } from './json5Style';
import { removeItem, type Splice } from './json5Remove';

export type { Splice } from './json5Remove';

export class ConfigEditError extends Error {
  readonly code = 'config_edit_refused';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigEditError';
  }
}

interface EditContext {
  text: string;
  style: Json5Style;
}

type Container = JsonObjectNode | JsonArrayNode;

export function applySplices(text: string, splices: readonly Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.start - a.start))
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

function editableRoot(doc: Json5Document): JsonValueNode {
  if (!doc.ok) {
    throw new ConfigEditError(
      `the file is not valid JSON5 (line ${doc.problem.line}, column ${doc.problem.column}: ${doc.problem.message}); fix it as text first`,
    );
  }
  if (!doc.root) throw new ConfigEditError(doc.editProblem ?? 'the file cannot be edited losslessly');
  return doc.root;
}

function where(ctx: EditContext, node: JsonNode): string {
  const { line, column } = lineColumnAt(ctx.text, node.location.start.index);
  return `line ${line}, column ${column}`;
}

function kindOf(node: JsonValueNode): string {
  if (node instanceof JsonObjectNode) return 'an object';
  if (node instanceof JsonArrayNode) return 'an array';
  const value = node.toJSON();
  return value === null ? 'null' : `a ${typeof value}`;
}

function isMultiline(node: Container): boolean {
  return node.children.some((child) => isToken(child, JsonTokenType.NEWLINE));
}

/** {a: {b: value}} for rest = [a, b]. */
function nest(rest: ConfigPath, value: unknown): unknown {
  return rest.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

/** The splices that set `path` to `value` in `doc` (throws ConfigEditError when the path cannot hold a value). */
export function planSet(doc: Json5Document, path: ConfigPath, value: unknown): Splice[] {
  const root = editableRoot(doc);
  const ctx: EditContext = { text: doc.text, style: detectStyle(doc.text, root) };
  if (path.length === 0) return [replaceValue(ctx, root, value, false)];
  let node: JsonValueNode = root;
  // whether `node` sits in a one-line object or array (then what is added to it stays on that line)
  let inlineParent = false;
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth]!;
    const last = depth === path.length - 1;
    const here = formatConfigPath(path.slice(0, depth));
    if (node instanceof JsonObjectNode) {
      const found = propertiesNamed(ctx.text, node, key);
      if (found.length > 1) {
        throw new ConfigEditError(
          `${formatConfigPath(path.slice(0, depth + 1))} is written ${found.length} times (${found.map((p) => where(ctx, p)).join('; ')}); keep one by hand first`,
        );
      }
      if (found.length === 0) return insertProperty(ctx, node, key, nest(path.slice(depth + 1), value), inlineParent);
      if (last) return [replaceValue(ctx, found[0]!.value, value, !isMultiline(node))];
      inlineParent = !isMultiline(node);
      node = found[0]!.value;
    } else if (node instanceof JsonArrayNode && isIndex(key)) {
      const index = Number(key);
      const element = node.elements[index];
      if (element === undefined) {
        if (index !== node.elements.length) {
          throw new ConfigEditError(
            `${here} has ${node.elements.length} element(s) (${where(ctx, node)}); index ${index} is past its end (use ${node.elements.length} to append)`,
          );
        }
        return appendElement(ctx, node, nest(path.slice(depth + 1), value), inlineParent);
      }
      if (last) return [replaceValue(ctx, element, value, !isMultiline(node))];
      inlineParent = !isMultiline(node);
      node = element;
    } else {
      throw new ConfigEditError(
        `cannot set ${formatConfigPath(path)}: ${path.length && depth ? here : 'the file'} is ${kindOf(node)} (${where(ctx, node)}), not an object${node instanceof JsonArrayNode ? ' (use a number to index an array)' : ''}`,
      );
    }
  }
  throw new ConfigEditError(`cannot set ${formatConfigPath(path)}`);
}

function replaceValue(ctx: EditContext, node: JsonValueNode, value: unknown, inline: boolean): Splice {
  const start = node.location.start.index;
  return {
    start,
    end: node.location.end.index,
    text: formatValue(value, ctx.style, indentOfLine(ctx.text, start), inline),
  };
}

function bracketTokens(node: Container): { open: JsonNode; close: JsonNode } {
  const openType = node instanceof JsonObjectNode ? JsonTokenType.BRACE_LEFT : JsonTokenType.BRACKET_LEFT;
  const closeType = node instanceof JsonObjectNode ? JsonTokenType.BRACE_RIGHT : JsonTokenType.BRACKET_RIGHT;
  const open = node.children.find((c) => isToken(c, openType));
  const close = [...node.children].reverse().find((c) => isToken(c, closeType));
  if (!open || !close) throw new ConfigEditError('the file has an object or array without brackets');
  return { open, close };
}

function insertProperty(
  ctx: EditContext,
  node: JsonObjectNode,
  key: string,
  value: unknown,
  inlineParent: boolean,
): Splice[] {
  return insertItem(ctx, node, node.properties, inlineParent, (indent, inline) => {
    return `${formatKey(key, ctx.style)}: ${formatValue(value, ctx.style, indent, inline)}`;
  });
}

function appendElement(ctx: EditContext, node: JsonArrayNode, value: unknown, inlineParent: boolean): Splice[] {
  return insertItem(ctx, node, node.elements, inlineParent, (indent, inline) =>
    formatValue(value, ctx.style, indent, inline),
  );
}

/** Adds an item after the last one of `node` (or into the empty `node`), laid out like its siblings. */
function insertItem(
  ctx: EditContext,
  node: Container,
  items: readonly JsonNode[],
  inline: boolean,
  render: (indent: string, inline: boolean) => string,
): Splice[] {
  const { text, style } = ctx;
  const { open, close } = bracketTokens(node);
  const nodeIndent = indentOfLine(text, node.location.start.index);
  if (items.length === 0) return insertIntoEmpty(ctx, open, close, nodeIndent, inline, render);
  const last = items.at(-1)!;
  const children = node.children;
  const lastIndex = children.indexOf(last);
  const closeIndex = children.indexOf(close);
  const comma = children.slice(lastIndex + 1, closeIndex).find((c) => isToken(c, JsonTokenType.COMMA));
  const lastStart = last.location.start.index;
  const ownLine = /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', lastStart - 1) + 1, lastStart));
  const newline = children
    .slice(children.indexOf(comma ?? last) + 1, closeIndex)
    .find((c) => isToken(c, JsonTokenType.NEWLINE));
  if (ownLine && newline) {
    const indent = indentOfLine(text, lastStart);
    const line = `${indent}${render(indent, false)}`;
    const after = newline.location.end.index;
    if (comma) return [{ start: after, end: after, text: `${line},${style.newline}` }];
    const lastEnd = last.location.end.index;
    return [
      { start: lastEnd, end: lastEnd, text: ',' },
      { start: after, end: after, text: `${line}${style.newline}` },
    ];
  }
  const oneLine = !isMultiline(node);
  if (comma) {
    const at = comma.location.end.index;
    return [{ start: at, end: at, text: ` ${render(nodeIndent, oneLine)},` }];
  }
  const at = last.location.end.index;
  return [{ start: at, end: at, text: `, ${render(nodeIndent, oneLine)}` }];
}

function insertIntoEmpty(
  ctx: EditContext,
  open: JsonNode,
  close: JsonNode,
  nodeIndent: string,
  inline: boolean,
  render: (indent: string, inline: boolean) => string,
): Splice[] {
  const { text, style } = ctx;
  const from = open.location.end.index;
  const to = close.location.start.index;
  const interior = text.slice(from, to);
  const inner = nodeIndent + style.indentUnit;
  const comma = style.trailingComma ? ',' : '';
  const nl = style.newline;
  if (/^\s*$/.test(interior)) {
    // a one-line parent ({a: {}}) keeps the new entry on that line
    if (inline && !interior.includes('\n')) return [{ start: from, end: to, text: ` ${render(nodeIndent, true)} ` }];
    return [{ start: from, end: to, text: `${nl}${inner}${render(inner, false)}${comma}${nl}${nodeIndent}` }];
  }
  // comments inside: keep them, add the entry on its own line before the closing bracket
  const closeLineStart = text.lastIndexOf('\n', to - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(closeLineStart, to)) && interior.includes('\n')) {
    return [{ start: closeLineStart, end: closeLineStart, text: `${inner}${render(inner, false)}${comma}${nl}` }];
  }
  return [{ start: to, end: to, text: `${nl}${inner}${render(inner, false)}${nl}${nodeIndent}` }];
}

/** The splices that remove `path` from `doc`; empty when it is not there (nothing to remove). */
export function planUnset(doc: Json5Document, path: ConfigPath): Splice[] {
  const root = editableRoot(doc);
  if (path.length === 0) throw new ConfigEditError('cannot remove the whole config; remove its keys one by one');
  const ctx: EditContext = { text: doc.text, style: detectStyle(doc.text, root) };
  let node: JsonValueNode = root;
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth]!;
    const last = depth === path.length - 1;
    let next: JsonNode | undefined;
    if (node instanceof JsonObjectNode) {
      const found = propertiesNamed(ctx.text, node, key);
      if (found.length > 1) {
        throw new ConfigEditError(
          `${formatConfigPath(path.slice(0, depth + 1))} is written ${found.length} times (${found.map((p) => where(ctx, p)).join('; ')}); keep one by hand first`,
        );
      }
      if (found.length === 0) return [];
      if (last) return removeItem(ctx.text, node, found[0]!);
      next = found[0]!.value;
    } else if (node instanceof JsonArrayNode && isIndex(key)) {
      const element = node.elements[Number(key)];
      if (!element) return [];
      if (last) return removeItem(ctx.text, node, element);
      next = element;
    } else return [];
    node = next as JsonValueNode;
  }
  return [];
}

export type ValueEdit = { op: 'set'; path: ConfigPath; value: unknown } | { op: 'unset'; path: ConfigPath };

/** `value` with one edit applied (a copy; what the text must parse to afterwards). */
export function applyToValue(value: unknown, edit: ValueEdit): unknown {
  if (edit.path.length === 0) return edit.op === 'set' ? structuredClone(edit.value) : value;
  const copy = structuredClone(value) as unknown;
  let node = copy;
  for (let i = 0; i < edit.path.length - 1; i++) {
    const key = edit.path[i]!;
    const container = node as Record<string, unknown>;
    if (!isRecord(container[key]) && !Array.isArray(container[key])) {
      if (edit.op === 'unset') return copy;
      container[key] = {};
    }
    node = container[key];
  }
  const key = edit.path.at(-1)!;
  if (edit.op === 'set') {
    (node as Record<string, unknown>)[key] = structuredClone(edit.value);
  } else if (Array.isArray(node)) {
    if (isIndex(key) && Number(key) < node.length) node.splice(Number(key), 1);
  } else if (isRecord(node)) delete node[key];
  return copy;
}

/** The text with one edit applied, verified by parsing it again. */
export function editText(doc: Json5Document, edit: ValueEdit): string {
  const splices = edit.op === 'set' ? planSet(doc, edit.path, edit.value) : planUnset(doc, edit.path);
  const text = applySplices(doc.text, splices);
  if (!doc.ok) return text;
  const expected = applyToValue(doc.value, edit);
  const after = parseJson5Document(text);
  if (!after.ok || !sameValue(after.value, expected)) {
    throw new ConfigEditError(
      `internal error: the edit of ${formatConfigPath(edit.path)} did not give the expected file (${after.ok ? 'different value' : after.problem.message}); nothing was changed — please report this with the file`,
    );
  }
  return text;
}

export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return (
      ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(a[k], b[k]))
    );
  }
  return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
}

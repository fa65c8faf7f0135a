/**
 * Removing one property or array element from a JSON5 text as splices: the item, its comma, and the line it leaves
 * empty. Comments are never removed, except those inside the removed value itself; a one-item container that
 * becomes empty closes up (`{}`), unless comments stay in it.
 */
import { type JsonArrayNode, JsonObjectNode, JsonTokenType, type JsonNode } from '@croct/json5-parser';
import { isToken } from './json5Style';

export interface Splice {
  start: number;
  end: number;
  text: string;
}

type Container = JsonObjectNode | JsonArrayNode;

const isBlank = (node: JsonNode | undefined) =>
  isToken(node, JsonTokenType.WHITESPACE) || isToken(node, JsonTokenType.NEWLINE);
const isComment = (node: JsonNode | undefined) =>
  isToken(node, JsonTokenType.LINE_COMMENT) || isToken(node, JsonTokenType.BLOCK_COMMENT);

/** The index of the comma that separates children[index] from what follows (skipping blanks and comments), or -1. */
function commaAfter(children: readonly JsonNode[], index: number): number {
  for (let j = index + 1; j < children.length; j++) {
    if (isToken(children[j], JsonTokenType.COMMA)) return j;
    if (!isBlank(children[j]) && !isComment(children[j])) return -1;
  }
  return -1;
}

function onlyWhitespaceBefore(text: string, index: number): boolean {
  return /^[ \t]*$/.test(text.slice(text.lastIndexOf('\n', index - 1) + 1, index));
}

export function removeItem(text: string, container: Container, item: JsonNode): Splice[] {
  const children = container.children;
  const items: readonly JsonNode[] = container instanceof JsonObjectNode ? container.properties : container.elements;
  const index = children.indexOf(item);
  const position = items.indexOf(item);
  const commaIndex = commaAfter(children, index);
  const commaAdjacent =
    commaIndex !== -1 && children.slice(index + 1, commaIndex).every((c) => isToken(c, JsonTokenType.WHITESPACE));

  if (items.length === 1) {
    const collapse = collapseIfEmpty(text, container, item, commaIndex);
    if (collapse) return [collapse];
  }

  const splices: Splice[] = [];
  let start = item.location.start.index;
  let end = item.location.end.index;
  let next = index + 1;
  if (commaAdjacent) {
    end = children[commaIndex]!.location.end.index;
    next = commaIndex + 1;
  } else if (commaIndex !== -1) {
    const comma = children[commaIndex]!;
    splices.push({ start: comma.location.start.index, end: comma.location.end.index, text: '' });
  }
  while (isToken(children[next], JsonTokenType.WHITESPACE)) end = children[next++]!.location.end.index;

  if (onlyWhitespaceBefore(text, start) && isToken(children[next], JsonTokenType.NEWLINE)) {
    // the item had its line to itself: the line goes
    start = text.lastIndexOf('\n', start - 1) + 1;
    end = children[next]!.location.end.index;
  } else if (commaIndex === -1 && position > 0 && !onlyWhitespaceBefore(text, start)) {
    // the last item on a shared line: `{ a: 1, b: 2 }` loses `, b: 2`
    const previousComma = commaAfter(children, children.indexOf(items[position - 1]!));
    if (previousComma !== -1) {
      const between = children.slice(previousComma + 1, index);
      if (between.every((c) => isToken(c, JsonTokenType.WHITESPACE))) {
        return [{ start: children[previousComma]!.location.start.index, end: item.location.end.index, text: '' }];
      }
    }
  }
  splices.push({ start, end, text: '' });

  if (commaIndex === -1 && position > 0) {
    // the last item goes: the comma before it would now trail; take it too (the file keeps its shape)
    const previousComma = commaAfter(children, children.indexOf(items[position - 1]!));
    if (previousComma !== -1) {
      const comma = children[previousComma]!;
      if (comma.location.end.index <= start)
        splices.push({ start: comma.location.start.index, end: comma.location.end.index, text: '' });
    }
  }
  return splices;
}

/** `{ a: 1 }` without a: `{}` — when nothing but blanks would stay between the brackets. */
function collapseIfEmpty(text: string, container: Container, item: JsonNode, commaIndex: number): Splice | null {
  const children = container.children;
  const openType = container instanceof JsonObjectNode ? JsonTokenType.BRACE_LEFT : JsonTokenType.BRACKET_LEFT;
  const closeType = container instanceof JsonObjectNode ? JsonTokenType.BRACE_RIGHT : JsonTokenType.BRACKET_RIGHT;
  const open = children.findIndex((c) => isToken(c, openType));
  const close = children.length - 1 - [...children].reverse().findIndex((c) => isToken(c, closeType));
  if (open === -1 || close >= children.length) return null;
  const inside = children.slice(open + 1, close);
  const rest = inside.filter((c) => c !== item && c !== children[commaIndex]);
  if (!rest.every(isBlank)) return null;
  return { start: children[open]!.location.end.index, end: children[close]!.location.start.index, text: '' };
}

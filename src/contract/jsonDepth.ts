/**
 * How deep a value nests, found without recursion: hostile input (a transcript line or an engine result nested
 * 100,000 levels deep, or an in-process engine's circular object) must become a problem with its place, never a
 * stack overflow in a recursive reader.
 */

/** Deeper than any real message: such nesting would overflow recursive readers (and no message needs it). */
export const MAX_MESSAGE_DEPTH = 200;

/** `nested deeper than N levels`, `circular`, or undefined when `value` nests at most `maxDepth` levels. */
export function jsonDepthProblem(value: unknown, maxDepth: number = MAX_MESSAGE_DEPTH): string | undefined {
  // frames: a node to enter at a depth, or the marker that leaves it (ancestors tell a cycle from sharing)
  const stack: ({ node: object; depth: number } | { leave: object })[] = [];
  const ancestors = new Set<object>();
  if (value !== null && typeof value === 'object') stack.push({ node: value, depth: 1 });
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if ('leave' in frame) {
      ancestors.delete(frame.leave);
      continue;
    }
    const { node, depth } = frame;
    if (depth > maxDepth) return `nested deeper than ${maxDepth} levels`;
    if (ancestors.has(node)) return 'circular (an object contains itself)';
    ancestors.add(node);
    stack.push({ leave: node });
    for (const child of Object.values(node as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push({ node: child, depth: depth + 1 });
    }
  }
  return undefined;
}

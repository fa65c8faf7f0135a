/**
 * Config paths as people write them: `plugins.entries.recent-window.config.budgetShare`, with `["a.b"]` for a key
 * that holds a dot, bracket or space, and `[0]` (or `.0`) for an array element. A path is a list of keys; a
 * numeric key indexes an array when the value there is one.
 */

export type ConfigPath = readonly string[];

export class ConfigPathError extends Error {
  readonly code = 'config_path_invalid';
  constructor(message: string) {
    super(message);
    this.name = 'ConfigPathError';
  }
}

const PLAIN_SEGMENT = /^[^.[\]\s"']+$/;

/** `a.b["c.d"][0]` → ['a', 'b', 'c.d', '0']; throws a ConfigPathError saying where the path is malformed. */
export function parseConfigPath(text: string): string[] {
  const source = text.trim();
  if (!source) throw new ConfigPathError('Empty config path: give one such as plugins.slots.contextEngine.');
  const out: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new ConfigPathError(`Invalid config path "${text}" at character ${i + 1}: ${why}.`);
  };
  while (i < source.length) {
    if (source[i] === '[') {
      const close = findClosingBracket(source, i);
      if (close === -1) fail('"[" is never closed');
      const inner = source.slice(i + 1, close).trim();
      out.push(bracketKey(inner, fail));
      i = close + 1;
    } else {
      let end = i;
      while (end < source.length && source[end] !== '.' && source[end] !== '[') end++;
      const segment = source.slice(i, end);
      if (!segment) fail('a key is missing');
      if (/\s/.test(segment)) fail(`"${segment}" has a space; write it as ["${segment}"]`);
      out.push(segment);
      i = end;
    }
    if (i < source.length) {
      if (source[i] === '.') {
        i++;
        if (i >= source.length) fail('the path ends with "."');
      } else if (source[i] !== '[') fail(`expected "." or "[" but found "${source[i]}"`);
    }
  }
  return out;
}

function findClosingBracket(source: string, open: number): number {
  const quote = source[open + 1];
  if (quote === '"' || quote === "'") {
    for (let j = open + 2; j < source.length; j++) {
      if (source[j] === '\\') j++;
      else if (source[j] === quote) return source[j + 1] === ']' ? j + 1 : -1;
    }
    return -1;
  }
  return source.indexOf(']', open);
}

function bracketKey(inner: string, fail: (why: string) => never): string {
  if (/^\d+$/.test(inner)) return inner;
  if (inner.startsWith('"')) {
    try {
      return JSON.parse(inner) as string;
    } catch {
      return fail(`${inner} is not a valid quoted key`);
    }
  }
  if (inner.startsWith("'") && inner.endsWith("'") && inner.length >= 2) return inner.slice(1, -1);
  return fail(`write a quoted key ["${inner}"] or an index [0] between the brackets`);
}

/** ['a', 'c.d', '0'] → `a["c.d"].0` (the form parseConfigPath reads back). */
export function formatConfigPath(path: ConfigPath): string {
  if (path.length === 0) return '(the whole config)';
  return path
    .map((segment, index) => {
      if (PLAIN_SEGMENT.test(segment)) return index === 0 ? segment : `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join('');
}

/** An ajv instancePath (`/budgetShare`, `/a~1b/0`) under `base` as a config path. */
export function pointerToPath(pointer: string, base: ConfigPath = []): string[] {
  const tokens =
    pointer === '' || pointer === '/'
      ? []
      : pointer
          .replace(/^\//, '')
          .split('/')
          .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  return [...base, ...tokens];
}

export function isIndex(segment: string): boolean {
  return /^(0|[1-9]\d*)$/.test(segment);
}

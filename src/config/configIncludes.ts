/**
 * OpenClaw's `$include` in openclaw.json (src/config/includes.ts): an object may name one file or a list of files
 * (relative to the file that names them); one file replaces the object, a list is deep-merged in order, and the
 * object's other keys are merged over what was included (which must then be an object). Deep merge concatenates
 * arrays, merges objects, and lets the later value win otherwise. Included files may include others (at most 10
 * deep; a loop is an error) and must stay inside the config's folder (or a folder of $OPENCLAW_INCLUDE_ROOTS).
 * ContextScope reads them to know the effective config and never writes them: an edit that would land in one is
 * refused, naming the file.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, relative, resolve } from 'node:path';
import { errorMessage, isRecord } from '../common';
import { formatConfigPath, type ConfigPath } from './configPath';
import { parseJson5Document } from './json5Document';

export const INCLUDE_KEY = '$include';
const MAX_DEPTH = 10;

export interface IncludedFile {
  /** config path of the object that holds the $include (in the file that names it) */
  at: string[];
  /** as written */
  include: string;
  /** absolute path */
  file: string;
  /** the file that names it */
  from: string;
  text?: string;
  /** why it could not be used */
  error?: string;
}

export interface ResolvedIncludes {
  /** the config with every $include merged in */
  value: unknown;
  files: IncludedFile[];
}

const BLOCKED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** OpenClaw's deep merge: arrays concatenate, objects merge recursively, otherwise the later value wins. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (Array.isArray(base) && Array.isArray(over)) return [...structuredClone(base), ...structuredClone(over)];
  if (!isRecord(base) || !isRecord(over)) return structuredClone(over);
  const out: Record<string, unknown> = { ...structuredClone(base) };
  for (const [key, value] of Object.entries(over)) {
    if (BLOCKED_KEYS.has(key)) continue;
    out[key] = key in out ? deepMerge(out[key], value) : value;
  }
  return out;
}

function includeList(value: unknown): string[] | string {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return `$include must be a file path or a list of file paths, not ${Array.isArray(value) ? 'a list with non-strings' : typeof value}`;
}

interface Walk {
  files: IncludedFile[];
  /** files being resolved, outermost first (loop detection) */
  stack: string[];
  /** folders included files must stay inside (the config's, plus $OPENCLAW_INCLUDE_ROOTS) */
  roots: string[];
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function resolveNode(value: unknown, file: string, at: string[], walk: Walk): unknown {
  if (Array.isArray(value)) return value.map((v, i) => resolveNode(v, file, [...at, String(i)], walk));
  if (!isRecord(value)) return value;
  const own: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key !== INCLUDE_KEY) own[key] = resolveNode(child, file, [...at, key], walk);
  }
  if (!(INCLUDE_KEY in value)) return own;
  const list = includeList(value[INCLUDE_KEY]);
  if (typeof list === 'string') {
    walk.files.push({ at, include: String(value[INCLUDE_KEY]), file: '', from: file, error: list });
    return own;
  }
  let included: unknown = list.length === 1 ? readIncluded(list[0]!, file, at, walk) : {};
  if (list.length > 1)
    for (const include of list) included = deepMerge(included, readIncluded(include, file, at, walk));
  if (Object.keys(own).length === 0) return included;
  if (!isRecord(included)) {
    walk.files.push({
      at,
      include: list.join(', '),
      file: '',
      from: file,
      error: `keys next to $include at ${formatConfigPath(at)} need the included content to be an object`,
    });
    return own;
  }
  return deepMerge(included, own);
}

function readIncluded(include: string, from: string, at: string[], walk: Walk): unknown {
  const file = resolve(dirname(from), include);
  const entry: IncludedFile = { at, include, file, from };
  walk.files.push(entry);
  if (!walk.roots.some((root) => inside(root, file) && inside(realOrSelf(root), realOrSelf(file)))) {
    entry.error = `$include path escapes the config folder: ${include} (allowed: ${walk.roots.join(', ')}; more with $OPENCLAW_INCLUDE_ROOTS)`;
    return {};
  }
  if (walk.stack.includes(file)) {
    entry.error = `$include loop: ${[...walk.stack, file].join(' → ')}`;
    return {};
  }
  if (walk.stack.length > MAX_DEPTH) {
    entry.error = `$include nests more than ${MAX_DEPTH} files deep`;
    return {};
  }
  try {
    entry.text = readFileSync(file, 'utf8');
  } catch (error) {
    entry.error = `cannot read ${file}: ${errorMessage(error)}`;
    return {};
  }
  const doc = parseJson5Document(entry.text);
  if (!doc.ok) {
    entry.error = `${file} is not valid JSON5 (line ${doc.problem.line}, column ${doc.problem.column}: ${doc.problem.message})`;
    return {};
  }
  walk.stack.push(file);
  try {
    return resolveNode(doc.value, file, [], walk);
  } finally {
    walk.stack.pop();
  }
}

/** `value` (read from `file`) with its $includes merged in, and every file that took part. */
export function resolveIncludes(value: unknown, file: string, env: NodeJS.ProcessEnv = process.env): ResolvedIncludes {
  const extra = (env.OPENCLAW_INCLUDE_ROOTS ?? '').split(delimiter).filter((r) => r.trim() !== '');
  const walk: Walk = {
    files: [],
    stack: [resolve(file)],
    roots: [dirname(resolve(file)), ...extra.map((r) => resolve(r))],
  };
  return { value: resolveNode(value, resolve(file), [], walk), files: walk.files };
}

export interface IncludeOwner {
  /** the $include file that provides the value (the last of a list that has it) */
  file: string;
  include: string;
  /** the config path of the object that includes it */
  at: string[];
}

/**
 * The $include file an edit of `path` would land in, or undefined when the path belongs to the main file. An edit
 * lands in an include when, on the way down the main file, an object with $include gets the next key from an
 * included file (a key of its own next to $include would not replace what the include gives deeper down).
 */
export function includeOwnerOf(
  main: unknown,
  path: ConfigPath,
  files: readonly IncludedFile[],
  mainFile: string,
): IncludeOwner | undefined {
  let node = main;
  const at: string[] = [];
  for (const key of path) {
    if (key === INCLUDE_KEY) return { file: mainFile, include: INCLUDE_KEY, at: [...at] };
    if (!isRecord(node)) return undefined;
    if (INCLUDE_KEY in node) {
      const here = files.filter((f) => f.from === resolve(mainFile) && sameList(f.at, at) && f.text !== undefined);
      for (const included of [...here].reverse()) {
        const doc = parseJson5Document(included.text!);
        if (doc.ok && isRecord(doc.value) && (key in doc.value || INCLUDE_KEY in doc.value))
          return { file: included.file, include: included.include, at: [...at] };
      }
    }
    node = node[key];
    at.push(key);
  }
  // replacing or removing an object that holds an $include would drop the include
  return containsInclude(node) ? { file: mainFile, include: INCLUDE_KEY, at } : undefined;
}

function containsInclude(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(containsInclude);
  return isRecord(value) && (INCLUDE_KEY in value || Object.values(value).some(containsInclude));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

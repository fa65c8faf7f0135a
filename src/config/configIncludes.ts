/**
 * OpenClaw's `$include` in openclaw.json: an object may name one file or a list of files (relative to the file that
 * names them) whose objects are deep-merged in order, then the object's own other keys are merged over them.
 * Included files may include others (at most 10 deep; a loop is an error). ContextScope reads them to know the
 * effective config and never writes them: an edit that would land in one is refused, naming the file.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
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

export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return structuredClone(over);
  const out: Record<string, unknown> = { ...structuredClone(base) };
  for (const [key, value] of Object.entries(over)) out[key] = key in out ? deepMerge(out[key], value) : value;
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
  let merged: unknown = {};
  for (const include of list) merged = deepMerge(merged, readIncluded(include, file, at, walk));
  return deepMerge(merged, own);
}

function readIncluded(include: string, from: string, at: string[], walk: Walk): unknown {
  const file = resolve(dirname(from), include);
  const entry: IncludedFile = { at, include, file, from };
  walk.files.push(entry);
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
  if (!isRecord(doc.value)) {
    entry.error = `${file} must hold an object to merge into ${formatConfigPath(at)}, not ${Array.isArray(doc.value) ? 'an array' : typeof doc.value}`;
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
export function resolveIncludes(value: unknown, file: string): ResolvedIncludes {
  const walk: Walk = { files: [], stack: [resolve(file)] };
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

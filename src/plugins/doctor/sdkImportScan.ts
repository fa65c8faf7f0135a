/**
 * What a plugin source file takes from `openclaw/plugin-sdk` modules, found without running it: static imports
 * (`import {a, b as c} from`, `import * as ns from`, a default binding, `export {a} from`, side-effect imports),
 * dynamic imports and requires with a literal specifier (`const {a} = await import(…)`, `const mod = await
 * import(…)` or `require(…)` followed by `mod.a`, `(await import(…)).a`). Type-only imports (`import type`,
 * `{ type X }`) are left out. Comments are ignored; a specifier built at run time is not seen.
 */

export type SdkImportKind = 'static' | 'dynamic';

export interface SdkImport {
  specifier: string;
  /** runtime names taken from the module ([] for a side-effect import or an unused namespace) */
  names: string[];
  kind: SdkImportKind;
  /** 1-based line of the import */
  line: number;
}

const SPEC = String.raw`openclaw\/plugin-sdk(?:\/[\w.-]+)*`;
const IDENT = String.raw`[A-Za-z_$][\w$]*`;
/** members of the import() promise itself, not of the module */
const PROMISE_MEMBERS = new Set(['default', 'then', 'catch', 'finally']);

/** Block and whole-line comments replaced by blanks (line numbers stay). */
export function stripComments(source: string): string {
  const blank = (text: string) => text.replace(/[^\n]/g, ' ');
  return source.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/^[ \t]*\/\/.*$/gm, blank);
}

function lineAt(source: string, index: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < index; i = source.indexOf('\n', i + 1)) line += 1;
  return line;
}

/** `a, b as c, type T, default as d` → ['a', 'b'] (types and `default` left out). */
function namedList(list: string, renameSeparator: RegExp): string[] {
  const names: string[] = [];
  for (const raw of list.split(',')) {
    const part = raw.trim();
    if (!part || /^type\s/.test(part) || part.startsWith('...')) continue;
    const name = part.split(renameSeparator)[0]!.trim();
    if (name && name !== 'default' && new RegExp(`^${IDENT}$`).test(name)) names.push(name);
  }
  return names;
}

/** Names read as `<binding>.name` / `<binding>?.name` anywhere in the file. */
function memberNames(source: string, binding: string): string[] {
  const escaped = binding.replace(/\$/g, '\\$');
  const re = new RegExp(String.raw`(?<![\w$.])${escaped}\s*(?:\?\.|\.)\s*(${IDENT})`, 'g');
  const names = new Set<string>();
  for (const m of source.matchAll(re)) if (m[1] !== 'default') names.add(m[1]!);
  return [...names];
}

function staticImports(source: string, out: SdkImport[]): void {
  const re = new RegExp(String.raw`\bimport\s+(type\s+)?([^'";]*?)\s*\bfrom\s*(['"])(${SPEC})\3`, 'g');
  for (const m of source.matchAll(re)) {
    if (m[1]) continue;
    const clause = m[2]!;
    const names: string[] = [];
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces) names.push(...namedList(braces[1]!, /\s+as\s+/));
    const outside = clause.replace(/\{[^}]*\}/, '');
    const namespace = new RegExp(String.raw`\*\s*as\s+(${IDENT})`).exec(outside);
    const binding = namespace?.[1] ?? new RegExp(String.raw`^\s*(${IDENT})`).exec(outside)?.[1];
    if (binding) names.push(...memberNames(source, binding));
    out.push({ specifier: m[4]!, names: [...new Set(names)], kind: 'static', line: lineAt(source, m.index) });
  }
  const bare = new RegExp(String.raw`\bimport\s*(['"])(${SPEC})\1`, 'g');
  for (const m of source.matchAll(bare))
    out.push({ specifier: m[2]!, names: [], kind: 'static', line: lineAt(source, m.index) });
  const reexport = new RegExp(String.raw`\bexport\s+(type\s+)?(\*|\{([^}]*)\})\s*from\s*(['"])(${SPEC})\4`, 'g');
  for (const m of source.matchAll(reexport)) {
    if (m[1]) continue;
    const names = m[3] !== undefined ? namedList(m[3], /\s+as\s+/) : [];
    out.push({ specifier: m[5]!, names, kind: 'static', line: lineAt(source, m.index) });
  }
}

/** What the code around a dynamic import at [start, end) takes from it. */
function dynamicNames(source: string, start: number, end: number): string[] {
  const member = new RegExp(String.raw`^\s*\)?\s*(?:\?\.|\.)\s*(${IDENT})`).exec(source.slice(end, end + 200));
  if (member) return PROMISE_MEMBERS.has(member[1]!) ? [] : [member[1]!];
  const before = source.slice(Math.max(0, start - 300), start);
  const assigned = String.raw`\s*=\s*\(?\s*(?:await\s+)?\(?\s*$`;
  const destructured = new RegExp(String.raw`(?:const|let|var)\s*\{([^}]*)\}${assigned}`).exec(before);
  if (destructured) return namedList(destructured[1]!, /\s*[:=]\s*/);
  const bound = new RegExp(String.raw`(?:const|let|var)\s+(${IDENT})${assigned}`).exec(before);
  return bound ? memberNames(source, bound[1]!) : [];
}

function dynamicImports(source: string, out: SdkImport[]): void {
  const re = new RegExp(String.raw`\b(?:import|require)\s*\(\s*(['"])(${SPEC})\1\s*\)`, 'g');
  for (const m of source.matchAll(re)) {
    const start = m.index;
    const end = start + m[0].length;
    if (/\btypeof\s+$/.test(source.slice(Math.max(0, start - 20), start))) continue;
    out.push({
      specifier: m[2]!,
      names: dynamicNames(source, start, end),
      kind: 'dynamic',
      line: lineAt(source, start),
    });
  }
}

/** Every use of an `openclaw/plugin-sdk` module in one source file. */
export function scanSdkImports(source: string): SdkImport[] {
  const code = stripComments(source);
  const out: SdkImport[] = [];
  staticImports(code, out);
  dynamicImports(code, out);
  return out.sort((a, b) => a.line - b.line);
}

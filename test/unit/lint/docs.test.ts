/**
 * Every reference in the repository resolves inside it: a "§n" anywhere in the sources, tests and Markdown names a
 * section or statement of docs/openclaw-behaviour.md, and a document named in a comment or a Markdown file (a
 * name ending in `.md`: from the repository's root, or relative to the citing file) exists. Documents that live
 * outside the repository cannot be cited: restate what is needed in the repository's own documents.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const BEHAVIOUR = 'docs/openclaw-behaviour.md';

/** Files that hold what people write: sources, tests, scripts and Markdown (fixture data left out, its READMEs not). */
function repositoryFiles(): string[] {
  return execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.(ts|tsx|mts|cts|js|mjs|cjs|md)$/.test(file))
    .filter((file) => !/^(node_modules|out)\//.test(file))
    .filter((file) => !/^(test\/fixtures|resources\/sessions)\//.test(file) || path.basename(file) === 'README.md')
    .filter((file) => existsSync(path.join(root, file)) && statSync(path.join(root, file)).isFile());
}

/** The numbers the behaviour document defines: its `§n` headings and its `**§n**` statements. */
export function behaviourSections(markdown: string): Set<string> {
  const sections = new Set<string>();
  for (const match of markdown.matchAll(/^#{1,6}\s+§(\d+(?:\.\d+)*)\b/gm)) sections.add(match[1]!);
  for (const match of markdown.matchAll(/^\s*(?:[-*]|\d+\.)\s+\*\*§(\d+(?:\.\d+)*)\*\*/gm)) sections.add(match[1]!);
  return sections;
}

/** `14.26` with `29` → `14.29`; a number with a dot stands on its own. */
function sibling(start: string, other: string): string {
  if (other.includes('.')) return other;
  const parts = start.split('.');
  parts[parts.length - 1] = other;
  return parts.join('.');
}

export interface SectionReference {
  section: string;
  line: number;
}

/**
 * Every section a text cites with "§": `§3.3`, `§13 step 7`, ranges (`§14.26–29`, `§10.1–10.2`: both ends) and
 * lists (`§14.1–5, 10, 21–25`: each number, as a sibling of the first).
 */
export function sectionReferences(text: string): SectionReference[] {
  const references: SectionReference[] = [];
  const pattern = /§(\d+(?:\.\d+)*)((?:\s?[–-]\s?\d+(?:\.\d+)*)?)((?:, \d+(?:[–-]\d+)?)*)/g;
  for (const match of text.matchAll(pattern)) {
    const line = text.slice(0, match.index).split('\n').length;
    const start = match[1]!;
    const cited = [start];
    const rangeEnd = match[2]!.replace(/[\s–-]/g, '');
    if (rangeEnd) cited.push(sibling(start, rangeEnd));
    for (const item of match[3]!
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      for (const end of item.split(/[–-]/)) cited.push(sibling(start, end));
    }
    for (const section of cited) references.push({ section, line });
  }
  return references;
}

/** The comments of a TypeScript or JavaScript file, each with the line it starts on. */
export function commentsOf(file: string, text: string): { text: string; line: number }[] {
  const kind = /\.(tsx)$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.(m|c)?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const seen = new Set<number>();
  const comments: { text: string; line: number }[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) {
      if (seen.has(range.pos)) continue;
      seen.add(range.pos);
      const line = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      comments.push({ text: text.slice(range.pos, range.end), line });
    }
  };
  const visit = (node: ts.Node) => {
    // `{/* … */}` in JSX: an expression holding only a comment
    if (ts.isJsxExpression(node) && !node.expression) {
      collect(ts.getTrailingCommentRanges(text, node.getStart(source) + 1));
      collect(ts.getLeadingCommentRanges(text, node.getStart(source) + 1));
    }
    collect(ts.getLeadingCommentRanges(text, node.pos));
    collect(ts.getTrailingCommentRanges(text, node.end));
    node.forEachChild(visit);
  };
  visit(source);
  collect(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return comments;
}

/** Markdown without its fenced code blocks (line numbers kept). */
function markdownProse(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** OpenClaw's agent workspace files: named in code as data, never as this repository's documents. */
const OPENCLAW_WORKSPACE_FILES = new Set([
  'AGENTS.md',
  'SOUL.md',
  'TOOLS.md',
  'USER.md',
  'IDENTITY.md',
  'HEARTBEAT.md',
  'BOOTSTRAP.md',
  'MEMORY.md',
]);

/**
 * Document names in a text that do not resolve: against the repository root, then the citing file's folder.
 * A name preceded by `:` or `/` is part of a longer path or an external one (`openclaw:docs/…md`) and is left alone.
 */
export function missingDocuments(
  citingFile: string,
  text: string,
  exists: (repoPath: string) => boolean,
): { name: string; line: number }[] {
  const missing: { name: string; line: number }[] = [];
  const pattern = /(?<![\w@:/.\\-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w.-]+\.md)(?![\w/-])/g;
  for (const match of text.matchAll(pattern)) {
    const name = match[1]!;
    if (OPENCLAW_WORKSPACE_FILES.has(name)) continue;
    const fromRoot = path.posix.normalize(name);
    const fromFolder = path.posix.normalize(path.posix.join(path.posix.dirname(citingFile), name));
    if (exists(fromRoot) || exists(fromFolder)) continue;
    missing.push({ name, line: text.slice(0, match.index).split('\n').length });
  }
  return missing;
}

function textsToCheck(file: string, text: string): { text: string; line: number }[] {
  if (!text.includes('.md')) return []; // most sources name no document: no need to parse them
  return file.endsWith('.md') ? [{ text: markdownProse(text), line: 1 }] : commentsOf(file, text);
}

describe('references in the repository', () => {
  const files = repositoryFiles();
  const exists = (repoPath: string) => !repoPath.startsWith('..') && existsSync(path.join(root, repoPath));

  it(`every § names a section or statement of ${BEHAVIOUR}`, () => {
    const sections = behaviourSections(readFileSync(path.join(root, BEHAVIOUR), 'utf8'));
    expect(sections.size).toBeGreaterThan(100);
    const unresolved = files.flatMap((file) =>
      sectionReferences(readFileSync(path.join(root, file), 'utf8'))
        .filter((reference) => !sections.has(reference.section))
        .map((reference) => `${file}:${reference.line}: §${reference.section}`),
    );
    expect(unresolved, `not a heading or statement of ${BEHAVIOUR}`).toEqual([]);
  });

  it('every document named in a comment or a Markdown file exists in the repository', () => {
    const unresolved = files.flatMap((file) =>
      textsToCheck(file, readFileSync(path.join(root, file), 'utf8')).flatMap((part) =>
        missingDocuments(file, part.text, exists).map((doc) => `${file}:${part.line + doc.line - 1}: ${doc.name}`),
      ),
    );
    expect(unresolved, 'cite a document of this repository (or restate what is needed in one)').toEqual([]);
  });
});

describe('the reference check itself', () => {
  it('reads sections, ranges and lists', () => {
    const refs = (text: string) => sectionReferences(text).map((r) => r.section);
    expect(refs('behaviour §3.3 step 4, §14.58')).toEqual(['3.3', '14.58']);
    expect(refs('behaviour §14.26–29: retry')).toEqual(['14.26', '14.29']);
    expect(refs('behaviour §10.1–10.2')).toEqual(['10.1', '10.2']);
    expect(refs('behaviour §14.1–5, 10, 21–25: resolution')).toEqual(['14.1', '14.5', '14.10', '14.21', '14.25']);
    expect(refs('(behaviour §1, 2, 4)')).toEqual(['1', '2', '4']);
  });

  it('knows headings and statements, not other numbers', () => {
    const sections = behaviourSections('## §3 Legacy\n### §3.3 Compaction\n- **§14.58** A cut\n- 14.59 not one\n');
    expect([...sections]).toEqual(['3', '3.3', '14.58']);
  });

  it('finds comments in TypeScript and TSX, not strings', () => {
    const code = "// see A.md\nconst s = 'B.md';\n/** C.md */\nexport const v = <p>D.md {/* E.md */}</p>;\n";
    expect(commentsOf('x.tsx', code).map((c) => c.text.replace(/[^A-E]/g, ''))).toEqual(['A', 'C', 'E']);
  });

  it('flags documents that are not in the repository, and only those', () => {
    const has = (repoPath: string) => ['README.md', 'src/replay/batch/README.md', 'ARCHITECTURE.md'].includes(repoPath);
    const names = (text: string) => missingDocuments('src/replay/README.md', text, has).map((d) => d.name);
    expect(names('see batch/README.md, ARCHITECTURE.md and README.md')).toEqual([]);
    expect(names('see DESIGN.md and docs/missing.md')).toEqual(['DESIGN.md', 'docs/missing.md']);
    expect(names('OpenClaw `openclaw:docs/concepts/context-engine.md`; read HEARTBEAT.md')).toEqual([]);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findDomGlobalUses, listSourceFiles } from './layering/domGlobals';

const root = path.resolve(import.meta.dirname, '../..');

function formatViolations(violations: { file: string; line: number; message: string }[]): string {
  return violations.map((v) => `${v.file}:${v.line}: ${v.message}`).join('\n');
}

describe('src/ uses no DOM globals', () => {
  it('in this repository', () => {
    const files = listSourceFiles(root, 'src').map((file) => path.join(root, file));
    expect(files.length).toBeGreaterThan(5);
    expect(formatViolations(findDomGlobalUses(root, files))).toBe('');
  });

  it('finds DOM globals (values, types, globalThis access) and ignores Node globals and local names', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'contextscope-layering-'));
    try {
      const file = path.join(dir, 'sample.ts');
      writeFileSync(
        file,
        [
          'export const title = document.title;',
          'export function el(node: HTMLElement) { return node; }',
          'export const w = globalThis.window;',
          'export const t = setTimeout(() => {}, 0);',
          'export const u = new URL("http://x");',
          'const localStorage = new Map<string, string>();',
          'export const v = localStorage.get("k");',
          'export const broken: number = "not a number";',
          'export const shorthand = { navigator };',
          'export function f(input: { document: string }) { return input.document; }',
          'export interface Options { window?: number }',
          'export const page = { location: 1 }.location;',
        ].join('\n'),
      );
      const found = findDomGlobalUses(dir, [file]).map(
        (violation) => `${violation.line}:${/"([^"]+)"/.exec(violation.message)![1]}`,
      );
      expect(found).toEqual(['1:document', '2:HTMLElement', '3:window', '9:navigator']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

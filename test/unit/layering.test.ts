import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkFileImports,
  checkImportRules,
  findDomGlobalUses,
  formatViolations,
  listSourceFiles,
  scanImports,
} from './layering/layeringRules';

const root = path.resolve(import.meta.dirname, '../..');

describe('layering of this repository', () => {
  it('src/ imports no Electron/React/UI package, main/ or renderer/; renderer/ only imports types from src/bridge and src/contract; only the Electron files of main/ import electron', () => {
    expect(formatViolations(checkImportRules(root))).toBe('');
  });

  it('src/ uses no DOM globals', () => {
    const files = listSourceFiles(root, 'src').map((file) => path.join(root, file));
    expect(files.length).toBeGreaterThan(5);
    expect(formatViolations(findDomGlobalUses(root, files))).toBe('');
  });
});

describe('the layering checker itself', () => {
  it('reads imports with the TypeScript parser, not text search (comments and strings are not imports)', () => {
    const text = [
      "// import { app } from 'electron';",
      "/* import React from 'react'; */",
      "const hint = \"import 'react'\";",
      "import { readFile } from 'node:fs';",
      "export { x } from './x';",
      "export type { Y } from './y';",
      "const lazy = await import('./lazy');",
      "const cjs = require('./cjs');",
      "type T = import('./types').T;",
    ].join('\n');
    expect(scanImports('src/a.ts', text)).toEqual([
      { specifier: 'node:fs', typeOnly: false, line: 4 },
      { specifier: './x', typeOnly: false, line: 5 },
      { specifier: './y', typeOnly: true, line: 6 },
      { specifier: './lazy', typeOnly: false, line: 7 },
      { specifier: './cjs', typeOnly: false, line: 8 },
      { specifier: './types', typeOnly: true, line: 9 },
    ]);
  });

  it.each([
    ["import { app } from 'electron';", 'src/ must not import "electron"'],
    ["import { useState } from 'react';", 'src/ must not import "react"'],
    ["import { createRoot } from 'react-dom/client';", 'src/ must not import "react-dom/client"'],
    ["const { app } = await import('electron');", 'src/ must not import "electron"'],
    ["const electron = require('electron');", 'src/ must not import "electron"'],
    ["import { startServer } from '../../main/serve';", 'src/ must not import main/serve'],
  ])('flags in src/: %s', (line, message) => {
    const violations = checkFileImports('src/runtime/x.ts', line);
    expect(violations).toHaveLength(1);
    expect(violations[0]!.message).toContain(message);
  });

  it.each([
    "import { methods } from '../../src/bridge';",
    "import { createContextRuntime } from '../../src/runtime';",
    "import type { Recording } from '../../src/replay';",
    "import { type AppInfo, methods } from '../../src/bridge';",
    "import '../../src/bridge';",
    "export { methods } from '../../src/bridge';",
    "import { handlers } from '../../main/handlers';",
    "import { ipcRenderer } from 'electron';",
    "import { readFileSync } from 'node:fs';",
  ])('flags in renderer/: %s', (line) => {
    expect(checkFileImports('renderer/src/view.tsx', line)).toHaveLength(1);
  });

  it.each([
    "import type { AppInfo } from '../../src/bridge';",
    "import { type AppInfo, type InspectorApi } from '../../src/bridge';",
    "import type { AgentMessage } from '../../src/contract';",
    "export type { AppInfo } from '../../src/bridge';",
    "import { create } from 'zustand';",
  ])('allows in renderer/: %s', (line) => {
    expect(checkFileImports('renderer/src/view.tsx', line)).toEqual([]);
  });

  it('lets only the Electron files of main/ import electron', () => {
    const line = "import { app } from 'electron';";
    expect(checkFileImports('main/handlers.ts', line)).toHaveLength(1);
    expect(checkFileImports('main/serve.ts', line)).toHaveLength(1);
    expect(checkFileImports('main/electron.ts', line)).toEqual([]);
    expect(checkFileImports('main/preload.ts', line)).toEqual([]);
    expect(checkFileImports('main/electron/shell.ts', line)).toEqual([]);
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
      const found = findDomGlobalUses(dir, [file]).map((violation) => `${violation.line}:${/"([^"]+)"/.exec(violation.message)![1]}`);
      expect(found).toEqual(['1:document', '2:HTMLElement', '3:window', '9:navigator']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * The repository's lint and format gate (run by `npm test`, so CI fails on any error), and the layer rules of
 * eslint.config.js exercised on code they must refuse and code they must let through: the config is what keeps
 * ARCHITECTURE.md's layers, so a rule that stops matching must fail here. Warnings (the size limits) are printed
 * for review and do not fail.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ESLint } from 'eslint';
import madge from 'madge';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/**
 * ESLint's and Prettier's own caches (keyed by each file's content; ESLint's also by the config), in a folder per
 * package-lock.json so other versions of the tools or plugins start afresh: $CONTEXTSCOPE_LINT_CACHE (CI keeps it
 * between runs, as it keeps the native addons), else node_modules/.cache. Linting and formatting every file is
 * about a minute of one core; with the cache only changed files are read again.
 */
const lockHash = createHash('sha256')
  .update(readFileSync(path.join(root, 'package-lock.json')))
  .digest('hex')
  .slice(0, 16);
const cacheDir = path.join(
  process.env.CONTEXTSCOPE_LINT_CACHE || path.join(root, 'node_modules', '.cache', 'contextscope-lint'),
  lockHash,
);

async function problemsIn(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

async function layerProblems(file: string, code: string): Promise<string[]> {
  const rules = [
    'boundaries/dependencies',
    'no-restricted-imports',
    '@typescript-eslint/no-restricted-imports',
    '@typescript-eslint/no-require-imports',
  ];
  return (await problemsIn(file, code)).filter((p) => rules.some((rule) => p.startsWith(`${rule}:`)));
}

describe('the repository', () => {
  it('has no ESLint errors (warnings are printed for review)', async () => {
    const cached = new ESLint({
      cwd: root,
      cache: true,
      cacheLocation: path.join(cacheDir, 'eslint.json'),
      cacheStrategy: 'content',
    });
    const results = await cached.lintFiles(['.']);
    const listed = (severity: 1 | 2) =>
      results.flatMap((r) =>
        r.messages
          .filter((m) => m.severity === severity)
          .map((m) => `${path.relative(root, r.filePath)}:${m.line}: ${m.ruleId ?? 'eslint'}: ${m.message}`),
      );
    const warnings = listed(1);
    if (warnings.length > 0) console.warn(`ESLint warnings (judged in review):\n${warnings.join('\n')}`);
    expect(listed(2).join('\n')).toBe('');
  }, 120_000);

  it('is formatted with Prettier', () => {
    // the CLI lists every file it would change (.gitignore and .prettierignore left out), as `npm run lint` checks
    const cli = path.join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
    const cache = ['--cache', '--cache-strategy', 'content', '--cache-location', path.join(cacheDir, 'prettier.json')];
    const run = spawnSync(process.execPath, [cli, '--list-different', ...cache, '.'], { cwd: root, encoding: 'utf8' });
    expect(run.stderr, 'prettier failed').toBe('');
    const unformatted = run.stdout.split('\n').filter(Boolean);
    expect(unformatted, 'run `npm run format`').toEqual([]);
    expect(run.status).toBe(0);
  }, 120_000);
});

describe('the import graph', () => {
  // one graph of the three trees for both checks (madge reads and parses every file: 2–7 s a run)
  let graph: Awaited<ReturnType<typeof madge>>;
  beforeAll(async () => {
    graph = await madge(
      ['src', 'main', 'renderer'].map((dir) => path.join(root, dir)),
      {
        baseDir: root,
        fileExtensions: ['ts', 'tsx'],
        tsConfig: path.join(root, 'tsconfig.json'),
      },
    );
  }, 60_000);

  it('has no loops (type-only imports included)', () => {
    expect(graph.circular().map((loop) => loop.join(' > '))).toEqual([]);
  });

  it('has no loops between the rooms of src/replay (a folder imports another only one way)', () => {
    // a room: the first folder under src/replay; a top-level file (the replay job, the service, the facade) is a node
    // of its own, so a room that uses the replay job while the job uses another room is no loop
    const roomOf = (file: string) => {
      const rest = path.relative('src/replay', file).split(path.sep);
      return rest.length > 1 ? `${rest[0]!}/` : rest[0]!;
    };
    const edges = new Map<string, Set<string>>();
    for (const [file, imports] of Object.entries(graph.obj())) {
      if (!file.startsWith('src/replay/')) continue;
      for (const imported of imports) {
        if (!imported.startsWith('src/replay/')) continue;
        const [from, to] = [roomOf(file), roomOf(imported)];
        if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    const loops: string[] = [];
    for (const [from, tos] of edges)
      for (const to of tos) if (from < to && edges.get(to)?.has(from)) loops.push(`${from} <-> ${to}`);
    expect(edges.size).toBeGreaterThan(5);
    expect(loops).toEqual([]);
  });
});

describe('the layer rules of eslint.config.js', () => {
  it.each([
    ['src/runtime/x.ts', "import { createLegacyContextEngine } from '../engines/legacy';", 'runtime -> engines'],
    ['src/contract/x.ts', "import { replaySession } from '../replay';", 'contract -> replay'],
    ['src/bridge/x.ts', "import type { Recording } from '../replay';", 'bridge -> replay (types too)'],
    ['src/transcripts/x.ts', "import { estimateMessageTokens } from '../tokens';", 'transcripts -> tokens'],
    ['src/transcripts/x.ts', "import { createContextRuntimeCore } from '../runtime';", 'a folder of the same rank'],
    ['src/plugins/x.ts', "const { replaySession } = await import('../replay');", 'a dynamic import upward'],
  ])('refuse an upward import in %s (%s: %s)', async (file, code) => {
    const problems = await layerProblems(file, code);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^boundaries\/dependencies: /);
  });

  it.each([
    ['src/engines/x.ts', "import { resolveCompactionSettings } from '../runtime';"],
    ['src/replay/x.ts', "import { loadPlugin } from '../plugins';"],
    ['src/cli/x.ts', "import { replaySession } from '../replay';"],
    ['src/tokens/x.ts', "import type { AgentMessage } from '../contract';"],
    ['src/contract/x.ts', "import { isRecord } from '../common/guards';"],
  ])('allow a downward import in %s: %s', async (file, code) => {
    expect(await layerProblems(file, code)).toEqual([]);
  });

  it.each([
    "import { app } from 'electron';",
    "import { useState } from 'react';",
    "import { createRoot } from 'react-dom/client';",
    "const electron = require('electron');",
    "import { startServer } from '../../main/serve';",
  ])('keep src/ free of Electron, UI packages and main/: %s', async (code) => {
    expect(await layerProblems('src/runtime/x.ts', code)).toHaveLength(1);
  });

  it.each([
    "import { methods } from '../../src/bridge';",
    "import { createContextRuntime } from '../../src/engines';",
    "import type { Recording } from '../../src/replay';",
    "import { type AppInfo, methods } from '../../src/bridge';",
    "export { methods } from '../../src/bridge';",
    "import { handlers } from '../../main/handlers';",
    "import { ipcRenderer } from 'electron';",
    "import { readFileSync } from 'node:fs';",
  ])('refuse in renderer/: %s', async (code) => {
    expect(await layerProblems('renderer/src/view.tsx', code)).not.toEqual([]);
  });

  it.each([
    "import type { AppInfo } from '../../src/bridge';",
    "import { type AppInfo, type InspectorApi } from '../../src/bridge';",
    "import type { AgentMessage } from '../../src/contract';",
    "import { create } from 'zustand';",
  ])('allow in renderer/: %s', async (code) => {
    expect(await layerProblems('renderer/src/view.tsx', code)).toEqual([]);
  });

  it('keeps src/view pure (no Node builtins, nothing above it) and lets the renderer import it', async () => {
    expect(await layerProblems('src/view/x.ts', "import { readFileSync } from 'node:fs';")).toHaveLength(1);
    expect(await layerProblems('src/view/x.ts', "import { replaySession } from '../replay';")).toHaveLength(1);
    expect(await layerProblems('src/view/x.ts', "import type { Recording } from '../contract/recording';")).toEqual([]);
    expect(await layerProblems('renderer/src/view.tsx', "import { compareLanes } from '../../src/view';")).toEqual([]);
  });

  it('lets only the Electron files of main/ import electron', async () => {
    const code = "import { app } from 'electron';";
    expect(await layerProblems('main/handlers.ts', code)).toHaveLength(1);
    expect(await layerProblems('main/serve.ts', code)).toHaveLength(1);
    expect(await layerProblems('main/electron.ts', code)).toEqual([]);
    expect(await layerProblems('main/preload.ts', code)).toEqual([]);
    expect(await layerProblems('main/electron/shell.ts', code)).toEqual([]);
  });

  it('lets main/ reach src/replay only through its index (and src/replay/batch)', async () => {
    const deep = "import { createPagedRecordings } from '../src/replay/stream/pagedRecordings';";
    expect(await layerProblems('main/workspaceHandlers.ts', deep)).toHaveLength(1);
    expect(
      await layerProblems('main/workspaceHandlers.ts', "import { importRecording } from '../src/replay';"),
    ).toEqual([]);
    expect(
      await layerProblems('main/batchHandlers.ts', "import { createBatchService } from '../src/replay/batch';"),
    ).toEqual([]);
  });

  it('puts src/app above src/config and src/replay, under src/cli', async () => {
    expect(await layerProblems('src/app/x.ts', "import { saveConfig } from '../config';")).toEqual([]);
    expect(await layerProblems('src/cli/x.ts', "import { readWorkspace } from '../app';")).toEqual([]);
    expect(await layerProblems('src/replay/x.ts', "import { PACKAGE_NAME } from '../app';")).toHaveLength(1);
  });

  it('warns (does not fail) on a function over 80 lines and accepts an exception that says why', async () => {
    const body = Array.from({ length: 85 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const tooLong = `export function long(): void {\n${body}\n}\n`;
    expect(await problemsIn('src/common/x.ts', tooLong)).toContainEqual(
      expect.stringMatching(/^max-lines-per-function: /),
    );
    const [result] = await eslint.lintText(tooLong, { filePath: path.join(root, 'src/common/x.ts') });
    const sizes = result!.messages.filter((m) => m.ruleId?.startsWith('max-lines'));
    expect(sizes.map((m) => m.severity)).toEqual([1]);
    const excused = `// eslint-disable-next-line max-lines-per-function -- a table of cases\n${tooLong}`;
    expect((await problemsIn('src/common/x.ts', excused)).filter((p) => p.startsWith('max-lines'))).toEqual([]);
  });
});

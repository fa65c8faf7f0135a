/**
 * A plugin that imports something ContextScope's openclaw/plugin-sdk shims lack gets a doctor finding naming the
 * subpath and the export: from its source without running it, and from the link error when its code runs in a
 * real engine host. What the shims provide, type-only imports and TypeScript types give no finding.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { denyAllConsent } from '../../../src/plugins/consent';
import { runDoctor } from '../../../src/plugins/doctor/runDoctor';
import type { DoctorReport } from '../../../src/plugins/doctor/reportTypes';
import { scanSdkImports } from '../../../src/plugins/doctor/sdkImportScan';
import { useSourceEngineHost } from '../builtApp';

// the TypeScript source host (a gap of the built host to close, issue 35's note): on the built, confined host a
// dependency's missing named export gives no sdk-export-missing finding
useSourceEngineHost();

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A plugin folder with a manifest, package.json and the given files (the entry is index.js unless said). */
function plugin(id: string, files: Record<string, string>, entry = './index.js'): string {
  const root = mkdtempSync(join(tmpdir(), `cs-sdk-imports-${id}-`));
  temps.push(root);
  const write = (name: string, text: string) => {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    writeFileSync(join(root, name), text);
  };
  write('openclaw.plugin.json', JSON.stringify({ id, kind: 'context-engine', configSchema: { type: 'object' } }));
  write('package.json', JSON.stringify({ name: id, type: 'module', openclaw: { extensions: [entry] } }));
  for (const [name, text] of Object.entries(files)) write(name, text);
  return root;
}

const ENGINE = `export default function register(api) {
  api.registerContextEngine('x', () => ({ info: { id: 'x', name: 'X' }, async ingest() { return { ingested: false }; },
    async assemble(p) { return { messages: p.messages, estimatedTokens: 0 }; }, async compact() { return { ok: true, compacted: false }; } }));
}
`;

const sdkFindings = (report: DoctorReport) => report.findings.filter((f) => f.code.startsWith('sdk-'));

function doctor(paths: string[], allowExecute = false): Promise<DoctorReport> {
  return runDoctor({
    pluginPaths: paths,
    bundledDir: false,
    stateDir: mkdtempSync(join(tmpdir(), 'cs-sdk-imports-state-')),
    ...(allowExecute ? { allowExecute: true } : { consent: denyAllConsent() }),
  });
}

describe('scanSdkImports', () => {
  it('finds the runtime names a file takes from openclaw/plugin-sdk modules, statically and dynamically', () => {
    const source = `
import type { Gone } from 'openclaw/plugin-sdk/session-store-runtime';
import { type SessionTranscriptTargetParams, readVisibleSessionTranscriptMessageEntries as readVisible } from "openclaw/plugin-sdk/session-transcript-runtime";
import * as sqlite from 'openclaw/plugin-sdk/sqlite-runtime';
import 'openclaw/plugin-sdk/agent-sessions';
export { definePluginEntry } from 'openclaw/plugin-sdk/plugin-entry';
// import { commented } from 'openclaw/plugin-sdk/core';
/* const { alsoCommented } = await import('openclaw/plugin-sdk/core'); */
sqlite.openOpenClawAgentDatabase();
const { appendSessionTranscriptMessageByIdentity, readSessionTranscriptRawDelta: raw } = await import('openclaw/plugin-sdk/session-transcript-runtime');
const mod = (await import("openclaw/plugin-sdk/session-store-runtime")) as Mod;
if (typeof mod?.upsertSessionEntry === 'function') mod.upsertSessionEntry({});
const one = (await import('openclaw/plugin-sdk/core')).delegateCompactionToRuntime;
const { redactSensitiveText } = require('openclaw/plugin-sdk/logging-core');
type T = typeof import('openclaw/plugin-sdk/core');
`;
    expect(scanSdkImports(source).map((i) => [i.line, i.kind, i.specifier, i.names])).toEqual([
      [3, 'static', 'openclaw/plugin-sdk/session-transcript-runtime', ['readVisibleSessionTranscriptMessageEntries']],
      [4, 'static', 'openclaw/plugin-sdk/sqlite-runtime', ['openOpenClawAgentDatabase']],
      [5, 'static', 'openclaw/plugin-sdk/agent-sessions', []],
      [6, 'static', 'openclaw/plugin-sdk/plugin-entry', ['definePluginEntry']],
      [
        10,
        'dynamic',
        'openclaw/plugin-sdk/session-transcript-runtime',
        ['appendSessionTranscriptMessageByIdentity', 'readSessionTranscriptRawDelta'],
      ],
      [11, 'dynamic', 'openclaw/plugin-sdk/session-store-runtime', ['upsertSessionEntry']],
      [13, 'dynamic', 'openclaw/plugin-sdk/core', ['delegateCompactionToRuntime']],
      [14, 'dynamic', 'openclaw/plugin-sdk/logging-core', ['redactSensitiveText']],
    ]);
  });
});

describe('doctor findings for openclaw/plugin-sdk imports', () => {
  it('without running the plugin: a missing export (static: error, dynamic: warning) and a subpath that is not provided', async () => {
    const root = plugin('needs-writes', {
      'index.js': `import { readVisibleSessionTranscriptMessageEntries, appendSessionTranscriptMessageByIdentity } from 'openclaw/plugin-sdk/session-transcript-runtime';
${ENGINE}`,
      'lib/lazy.js': `export async function latest(t) {
  const runtime = await import('openclaw/plugin-sdk/session-transcript-runtime');
  return runtime.readLatestAssistantTextByIdentity(t);
}
export const sessions = () => import('openclaw/plugin-sdk/agent-sessions');
`,
      'test/ignored.test.js': `import { withSessionTranscriptWriteLock } from 'openclaw/plugin-sdk/session-transcript-runtime';`,
    });
    const report = await doctor([root]);
    expect(sdkFindings(report).map((f) => [f.severity, f.code, f.where.file])).toEqual([
      ['error', 'sdk-export-missing', 'index.js'],
      ['error', 'sdk-subpath-missing', 'lib/lazy.js'],
      ['warn', 'sdk-export-missing', 'lib/lazy.js'],
    ]);
    const [missing, subpath, lazy] = sdkFindings(report);
    expect(missing!.message).toMatch(
      /^index\.js:1 imports appendSessionTranscriptMessageByIdentity from openclaw\/plugin-sdk\/session-transcript-runtime: OpenClaw 2026\.9\.6 exports it, ContextScope's engine host does not \(it provides readVisibleSessionTranscriptMessageEntries, .*\); the module does not link/,
    );
    expect(missing!.where).toEqual({ pluginId: 'needs-writes', file: 'index.js', operation: 'import' });
    expect(subpath!.message).toMatch(
      /^lib\/lazy\.js:5 imports openclaw\/plugin-sdk\/agent-sessions, which ContextScope/,
    );
    expect(lazy!.message).toMatch(
      /^lib\/lazy\.js:2 imports readLatestAssistantTextByIdentity .*reads undefined for it$/,
    );
  });

  it('gives nothing for what the shims provide, type-only imports and names OpenClaw exports only as types', async () => {
    const ts = plugin(
      'ts-types',
      {
        'index.ts': `import type { SessionEntry } from 'openclaw/plugin-sdk/session-store-runtime';
import { SessionTranscriptTargetParams, readSessionTranscriptVisibleMessageDelta } from 'openclaw/plugin-sdk/session-transcript-runtime';
import { definePluginEntry } from 'openclaw/plugin-sdk/plugin-entry';
export default definePluginEntry({ id: 'ts-types', register() {} });
`,
      },
      './index.ts',
    );
    const report = await doctor([ts, resolve(import.meta.dirname, '../../fixtures/plugins/transcript-reader')]);
    expect(sdkFindings(report)).toEqual([]);
  });

  it('when the plugin runs, the link error of a dependency that imports a missing export names the subpath and the export', async () => {
    const root = plugin('dep-needs-writes', {
      'index.js': `import { helper } from 'writer-dep';\n${ENGINE}`,
      'node_modules/writer-dep/package.json': JSON.stringify({ name: 'writer-dep', type: 'module', main: 'index.js' }),
      'node_modules/writer-dep/index.js': `import { appendSessionTranscriptMessagesByIdentity } from 'openclaw/plugin-sdk/session-transcript-runtime';
export const helper = appendSessionTranscriptMessagesByIdentity;
`,
    });
    const report = await doctor([root], true);
    expect(report.executed).toBe(true);
    expect(report.findings.filter((f) => f.code === 'load-error')).toEqual([]);
    expect(sdkFindings(report).map((f) => [f.severity, f.code])).toEqual([['error', 'sdk-export-missing']]);
    expect(sdkFindings(report)[0]!.message).toMatch(
      /imports appendSessionTranscriptMessagesByIdentity from openclaw\/plugin-sdk\/session-transcript-runtime: OpenClaw 2026\.9\.6 exports it/,
    );
    expect(report.plugins[0]!.errors.join('\n')).toMatch(
      /does not provide an export named 'appendSessionTranscriptMessagesByIdentity'/,
    );
  }, 60_000);

  it('a static import found in the source is reported once, not again from the link error when the plugin runs', async () => {
    const root = plugin('static-needs-writes', {
      'index.js': `import { withSessionTranscriptWriteLock } from 'openclaw/plugin-sdk/session-transcript-runtime';\n${ENGINE}`,
    });
    const report = await doctor([root], true);
    expect(report.executed).toBe(true);
    expect(sdkFindings(report).map((f) => [f.code, f.where.file])).toEqual([['sdk-export-missing', 'index.js']]);
    expect(report.findings.filter((f) => f.code === 'load-error')).toEqual([]);
  }, 60_000);
});

/**
 * The bundled sample plugins load in engine hosts (recent-window: ESM, summary-tree: TypeScript), and a plugin's
 * delegateCompactionToRuntime reaches the app: the loader's compactionDelegate, or by default the built-in compaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { delegateCompactionToRuntime } from '../../../src/engines/legacy';
import { writeSmokeTranscript } from '../../../src/plugins/doctor/smokeConversation';
import type { CompactParams } from '../../../src/contract';
import { allowExecuteConsent } from '../../../src/plugins/consent';
import { loadPlugin, type LoadedPlugin } from '../../../src/plugins/loadPlugin';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';
import { createContextRuntime } from '../../../src/engines';
import { resolveCompactionSettings, type ContextRuntime } from '../../../src/runtime';

const SAMPLES = join(import.meta.dirname, '../../../resources/plugins');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let runtime: ContextRuntime;
const delegated: CompactParams[] = [];
let recentWindow: LoadedPlugin;
let summaryTree: LoadedPlugin;
let builtIn: LoadedPlugin;
const work = mkdtempSync(join(tmpdir(), 'cs-samples-'));
const settings = resolveCompactionSettings({ keepRecentTokens: 20 });

beforeAll(async () => {
  runtime = createContextRuntime({ logger: quiet });
  const options = {
    runtime,
    consent: allowExecuteConsent(),
    logger: quiet,
    compactionDelegate: async (params: CompactParams) => {
      delegated.push(params);
      return {
        ok: true,
        compacted: true,
        reason: 'compacted by the app',
        result: { tokensBefore: 900, tokensAfter: 300 },
      };
    },
  };
  [recentWindow, summaryTree, builtIn] = await Promise.all([
    loadPlugin(readPluginPackage(join(SAMPLES, 'recent-window'), 'bundled'), options),
    loadPlugin(readPluginPackage(join(SAMPLES, 'summary-tree'), 'bundled'), options),
    // no compactionDelegate: the default runs the app's built-in compaction
    loadPlugin(readPluginPackage(join(import.meta.dirname, '../../fixtures/plugins/loader-esm'), 'linked'), {
      runtime,
      consent: allowExecuteConsent(),
      logger: quiet,
      compaction: { settings },
    }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all([recentWindow.close(), summaryTree.close(), builtIn.close()]);
  rmSync(work, { recursive: true, force: true });
});

describe('bundled sample plugins', () => {
  it("recent-window's delegateCompactionToRuntime (openclaw/plugin-sdk/core, ESM) reaches the app's compactionDelegate", async () => {
    expect(recentWindow.status).toBe('running');
    expect(recentWindow.engineIds).toEqual(['recent-window']);
    const engine = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'recent-window' } } });
    const result = await engine.compact({ sessionId: 'rw-1', sessionFile: '/tmp/rw-1.jsonl', force: true });
    expect(result).toEqual({
      ok: true,
      compacted: true,
      reason: 'compacted by the app',
      result: { tokensBefore: 900, tokensAfter: 300 },
    });
    expect(delegated.map((p) => [p.sessionId, p.sessionFile, p.force])).toEqual([['rw-1', '/tmp/rw-1.jsonl', true]]);
  });

  it('summary-tree (TypeScript entry) loads, registers its engine and sees no host LLM when the app offers none', () => {
    expect(summaryTree.status).toBe('running');
    expect(summaryTree.engineIds).toEqual(['summary-tree']);
    expect(summaryTree.errors).toEqual([]);
    expect(summaryTree.logs.find((l) => l.level === 'info')?.message).toContain('host llm not available');
  });

  it("by default runs the app's built-in compaction on the session file the engine passes", async () => {
    const sessionFile = writeSmokeTranscript(work, 'remote');
    const referenceFile = join(work, 'reference.jsonl');
    copyFileSync(sessionFile, referenceFile);
    const engine = await runtime.resolveContextEngine({ plugins: { slots: { contextEngine: 'loader-esm' } } });
    const remote = await engine.compact({ sessionId: 'remote', sessionFile, force: true });
    const local = await delegateCompactionToRuntime(
      { sessionId: 'remote', sessionFile: referenceFile, force: true },
      { settings },
    );
    expect(remote.compacted).toBe(true);
    expect(remote).toEqual(local);
    const appended = JSON.parse(readFileSync(sessionFile, 'utf8').trim().split('\n').at(-1)!) as {
      type: string;
      firstKeptEntryId: string;
    };
    expect(appended.type).toBe('compaction');
    expect(appended.firstKeptEntryId).toBe(remote.result!.firstKeptEntryId);
  });
});

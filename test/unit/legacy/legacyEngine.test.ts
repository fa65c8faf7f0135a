import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionTranscriptHandle } from '../../../src/contract';
import {
  createLegacyContextEngine,
  delegateCompactionToRuntime,
  LEGACY_ENGINE_INFO,
} from '../../../src/engines/legacy';
import { readSessionFile, writeSessionFile } from '../../../src/transcripts';
import { assistantText, branch, HEADER, transcriptOf, user } from './helpers';

const t = (n: number) => 'x'.repeat(4 * n);
const SETTINGS = { enabled: true, reserveTokens: 1000, keepRecentTokens: 60 };
const fourTurns = () =>
  branch([
    user(`one ${t(50)}`),
    assistantText(`a1 ${t(50)}`),
    user(`two ${t(50)}`),
    assistantText(`a2 ${t(50)}`),
    user(`three ${t(50)}`),
    assistantText(`a3 ${t(50)}`),
  ]);

describe('legacy engine (behaviour §3.1)', () => {
  const engine = createLegacyContextEngine();

  it('has OpenClaw’s info and no ownsCompaction / host requirements', () => {
    expect(engine.info).toEqual({ id: 'legacy', name: 'Legacy Context Engine', version: '1.0.0' });
    expect(LEGACY_ENGINE_INFO).toEqual(engine.info);
  });

  it('ingest returns {ingested:false}; afterTurn and dispose are no-ops', async () => {
    await expect(engine.ingest({ sessionId: 's', message: user('x') })).resolves.toEqual({ ingested: false });
    await expect(
      engine.afterTurn!({ sessionId: 's', sessionFile: '/nope', messages: [], prePromptMessageCount: 0 }),
    ).resolves.toBeUndefined();
    await expect(engine.dispose!()).resolves.toBeUndefined();
  });

  it('assemble passes the messages through unchanged with estimatedTokens 0', async () => {
    const messages = [user('hi'), assistantText('hello')];
    const result = await engine.assemble({ sessionId: 's', messages, tokenBudget: 10 });
    expect(result).toEqual({ messages, estimatedTokens: 0 });
    expect(result.messages).toBe(messages);
    expect(Object.keys(result)).toEqual(['messages', 'estimatedTokens']);
  });

  it('implements none of the optional lifecycle methods it lacks in OpenClaw', () => {
    for (const method of [
      'bootstrap',
      'maintain',
      'ingestBatch',
      'prepareSubagentSpawn',
      'onSubagentEnded',
      'commitTurn',
    ]) {
      expect(method in engine).toBe(false);
    }
  });

  it('compact delegates to the built-in compaction on the session transcript', async () => {
    const transcript = transcriptOf(fourTurns());
    const refs: unknown[] = [];
    const legacy = createLegacyContextEngine({
      compaction: SETTINGS,
      resolveTranscript: async (ref) => {
        refs.push(ref);
        return transcript;
      },
    });
    const result = await legacy.compact({ sessionId: 'session-1', sessionKey: 'agent:main:x', force: true });
    expect(refs).toEqual([{ sessionId: 'session-1', sessionKey: 'agent:main:x' }]);
    expect(result.ok).toBe(true);
    expect(result.compacted).toBe(true);
    expect(Object.keys(result.result!).sort()).toEqual([
      'details',
      'firstKeptEntryId',
      'summary',
      'tokensAfter',
      'tokensBefore',
    ]);
    expect(transcript.activePath().at(-1)!.type).toBe('compaction');
  });
});

describe('delegateCompactionToRuntime (behaviour §3.4)', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('floors a finite positive runtimeContext.currentTokenCount for the trigger', async () => {
    // window 5000 − reserve 1000: the trigger needs more than 4000
    const run = (count: number) => {
      const transcript = transcriptOf(fourTurns());
      return delegateCompactionToRuntime(
        { sessionId: 's', tokenBudget: 5000, runtimeContext: { currentTokenCount: count } },
        { resolveTranscript: async () => transcript, settings: SETTINGS },
      );
    };
    expect(await run(4000.9)).toEqual({ ok: true, compacted: false, reason: 'below threshold' });
    expect((await run(4001.2)).compacted).toBe(true);
    // NaN / negative values are ignored: the transcript estimate (≈320) is used
    expect((await run(Number.NaN)).reason).toBe('below threshold');
  });

  it('prefers the currentTokenCount param and ignores compactionTarget', async () => {
    const base = {
      sessionId: 's',
      tokenBudget: 5000,
      currentTokenCount: 4500,
      runtimeContext: { currentTokenCount: 10 },
    };
    const a = await delegateCompactionToRuntime(base, {
      resolveTranscript: async () => transcriptOf(fourTurns()),
      settings: SETTINGS,
    });
    const b = await delegateCompactionToRuntime(
      { ...base, compactionTarget: 'threshold' },
      { resolveTranscript: async () => transcriptOf(fourTurns()), settings: SETTINGS },
    );
    expect(a.compacted).toBe(true);
    expect(b).toEqual(a);
  });

  it('resolves settings from runtimeContext config when none are given', async () => {
    const transcript = transcriptOf(fourTurns());
    const result = await delegateCompactionToRuntime(
      {
        sessionId: 's',
        force: true,
        runtimeContext: { config: { agents: { defaults: { compaction: { keepRecentTokens: 60 } } } } },
      },
      { resolveTranscript: async () => transcript },
    );
    // keep 60 → the last turn (two 53-token messages) is kept, starting at e5
    expect(result.result!.firstKeptEntryId).toBe('e5');
  });

  it('opens params.sessionFile by default and appends the compaction line to it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-legacy-'));
    dirs.push(dir);
    const file = join(dir, 'session-1.jsonl');
    const entries = fourTurns();
    await writeSessionFile(file, { header: HEADER, entries });
    const result = await delegateCompactionToRuntime(
      { sessionId: 'session-1', sessionFile: file, force: true },
      { settings: SETTINGS },
    );
    expect(result.compacted).toBe(true);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1 + entries.length + 1);
    const appended = JSON.parse(lines.at(-1)!);
    expect(appended).toMatchObject({
      type: 'compaction',
      parentId: 'e6',
      firstKeptEntryId: 'e5',
      summary: result.result!.summary,
    });
    const reread = await readSessionFile(file, { mode: 'strict' });
    expect(reread.entries.at(-1)!.type).toBe('compaction');
  });

  it('says how to fix a call without sessionFile or resolver', async () => {
    await expect(delegateCompactionToRuntime({ sessionId: 'abc', force: true })).rejects.toThrow(
      'delegateCompactionToRuntime: cannot find the transcript of session "abc": compact() received no sessionFile. Pass sessionFile (E1/E2 hosts do), or give delegateCompactionToRuntime a resolveTranscript dependency.',
    );
  });

  it('passes the abort signal through', async () => {
    const controller = new AbortController();
    controller.abort(new Error('host timeout'));
    const transcript: SessionTranscriptHandle = transcriptOf(fourTurns());
    await expect(
      delegateCompactionToRuntime(
        { sessionId: 's', force: true, abortSignal: controller.signal },
        { resolveTranscript: async () => transcript },
      ),
    ).rejects.toThrow('host timeout');
  });
});

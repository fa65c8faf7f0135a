/**
 * Plugin hooks in a replay, on a real engine host (the hook-context fixture plugin): before_prompt_build's plugin
 * system context changes the system prompt the lane sends exactly as OpenClaw composes it (the precheck equals
 * a replay whose system prompt already holds OpenClaw's fenced section), its prependContext goes before the
 * prompt and it is given the assembled messages; before/after_compaction get OpenClaw's built-in-compactor
 * payloads; conversation hooks are blocked as OpenClaw blocks them unless allowConversationAccess is set; the
 * lane notice names only the hooks that do not run, each with why.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { importRecording, replaySession, type Recording } from '../../../src/replay';
import type { OpenClawConfig } from '../../../src/contract';
import { SessionBuilder, tempDir } from './sessionBuilder';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/plugins/hook-context');
const BASE_SYSTEM = 'You are a careful assistant.';
const NOTES = 'Project notes: indent with tabs.';
const FENCED = `---\n\nOpenClaw plugin-injected system context. This block is not workspace file content.\n\n${NOTES}\n\n---`;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function session(repeat = 400) {
  const b = new SessionBuilder();
  for (const word of ['alpha', 'beta', 'gamma', 'delta']) b.turn(`tell me about ${word}`, `${word} `.repeat(repeat));
  return b.loaded();
}

async function replayHookLane(opts: {
  pluginConfig: Record<string, unknown>;
  systemPrompt?: string;
  config?: OpenClawConfig;
  manualCompactions?: { turn: number }[];
  openclawVersion?: string;
  contextWindow?: number;
  repeat?: number;
}): Promise<Recording> {
  const workDir = tempDir('cs-plugin-hooks-');
  dirs.push(workDir);
  return replaySession({
    session: session(opts.repeat),
    systemPrompt: opts.systemPrompt ?? BASE_SYSTEM,
    lanes: [
      {
        engine: { kind: 'plugin', plugin: FIXTURE, pluginConfig: opts.pluginConfig },
        contextWindow: opts.contextWindow ?? 32_000,
        keepRecentTokens: 500,
        ...(opts.config ? { config: opts.config } : {}),
      },
    ],
    plugins: { allowExecute: true },
    ...(opts.manualCompactions ? { manualCompactions: opts.manualCompactions } : {}),
    ...(opts.openclawVersion ? { openclawVersion: opts.openclawVersion } : {}),
    workDir,
  });
}

const turnsOf = (rec: Recording) => rec.turns[rec.lanes[0]!.id]!;

describe('plugin hooks in a replay lane', () => {
  it("before_prompt_build's system context is sent as OpenClaw composes it; without it nothing changes", async () => {
    const hooked = await replayHookLane({ pluginConfig: { systemContext: NOTES } });
    const composed = await replayHookLane({ pluginConfig: {}, systemPrompt: `${FENCED}\n\n${BASE_SYSTEM}` });
    const twin = await replayHookLane({ pluginConfig: {} });
    expect(hooked.lanes[0]!.error).toBeUndefined();
    const [h, c, t] = [turnsOf(hooked), turnsOf(composed), turnsOf(twin)];
    expect(h).toHaveLength(4);
    for (let i = 0; i < h.length; i++) {
      expect(h[i]!.promptHooks).toEqual({ prependSystemContext: FENCED });
      expect(h[i]!.precheck.estimatedTokens).toBe(c[i]!.precheck.estimatedTokens);
      expect(h[i]!.precheck.estimatedTokens).toBeGreaterThan(t[i]!.precheck.estimatedTokens);
      expect(h[i]!.hooks?.find((r) => r.name === 'before_prompt_build')).toMatchObject({ changed: true, handlers: 1 });
      // the false twin: the hook ran and returned nothing, so the lane sends what it would without the plugin's hook
      expect(t[i]!.hooks?.find((r) => r.name === 'before_prompt_build')).toMatchObject({ changed: false });
      expect(t[i]!.promptHooks).toBeUndefined();
    }
  });

  it('prependContext goes before the prompt and the hook is given the assembled messages', async () => {
    const rec = await replayHookLane({ pluginConfig: { promptContext: 'Recall' } });
    for (const turn of turnsOf(rec)) {
      expect(turn.promptHooks).toEqual({ prependContext: `Recall (${turn.assembled.length} messages)` });
    }
    expect(turnsOf(rec)[2]!.assembled.length).toBe(4);
  });

  it('before_compaction and after_compaction get the built-in compactor payloads OpenClaw passes', async () => {
    const rec = await replayHookLane({ pluginConfig: {}, manualCompactions: [{ turn: 2 }] });
    const turns = turnsOf(rec);
    const compaction = turns[2]!.events.find((e) => e.type === 'compaction');
    expect(compaction).toMatchObject({ trigger: 'manual', compacted: true });
    const seen = JSON.parse(turns[3]!.systemPromptAddition!.replace(/^hooks seen: /, '')) as {
      compactions: Record<string, unknown>[];
    };
    const before = rec.session.messageKeys.slice(0, 4).reduce((s, k) => s + rec.messages[k]!.estTokens, 0);
    const afterCount = turns[2]!.assembled.length;
    expect(seen.compactions).toEqual([
      {
        phase: 'before',
        messageCount: 4,
        tokenCount: before,
        ctxKeys: ['agentId', 'sessionId', 'sessionKey', 'workspaceDir'],
      },
      {
        phase: 'after',
        messageCount: afterCount,
        tokenCount: compaction!.type === 'compaction' ? compaction!.tokensAfter : null,
        compactedCount: 4 - afterCount,
        sessionFile: expect.stringMatching(/\.jsonl$/) as unknown,
      },
    ]);
    expect(afterCount).toBeLessThan(4);
    // /compact runs before the turn's run, so its hooks come before the run's
    expect(turns[2]!.hooks?.map((r) => r.name)).toEqual([
      'before_compaction',
      'after_compaction',
      'before_agent_start',
      'before_prompt_build',
    ]);
    importRecording(JSON.parse(JSON.stringify(rec)));
  });

  it('names only the hooks that do not run, each with why; allowConversationAccess lets agent_end run', async () => {
    const rec = await replayHookLane({ pluginConfig: {} });
    const notice = rec.findings.filter((f) => f.code === 'plugin-hooks-not-run');
    expect(notice).toHaveLength(1);
    expect(notice[0]!.message).toContain(
      'agent_end (blocked, as OpenClaw blocks it: non-bundled plugins must set plugins.entries.hook-context.hooks.allowConversationAccess=true)',
    );
    expect(notice[0]!.message).toContain('gateway_start (belongs to the gateway process');
    for (const runs of ['before_prompt_build', 'before_compaction', 'after_compaction']) {
      expect(notice[0]!.message).not.toContain(`${runs} (`);
    }
    expect(turnsOf(rec).every((t) => !t.hooks?.some((r) => r.name === 'agent_end'))).toBe(true);

    const allowed = await replayHookLane({
      pluginConfig: {},
      config: {
        plugins: { entries: { 'hook-context': { hooks: { allowConversationAccess: true } } } },
      } as OpenClawConfig,
    });
    const turns = turnsOf(allowed);
    expect(turns[3]!.systemPromptAddition).toBe('hooks seen: {"compactions":[],"agentEnds":3}');
    expect(turns[0]!.hooks?.map((r) => r.name)).toEqual(['before_agent_start', 'before_prompt_build', 'agent_end']);
    expect(allowed.findings.find((f) => f.code === 'plugin-hooks-not-run')?.message).not.toContain('agent_end');
  });

  it('as OpenClaw 2026.9.6, before_prompt_build is a conversation hook: blocked without allowConversationAccess', async () => {
    const rec = await replayHookLane({ pluginConfig: { systemContext: NOTES }, openclawVersion: '2026.9.6' });
    expect(turnsOf(rec).every((t) => t.promptHooks === undefined)).toBe(true);
    expect(rec.findings.find((f) => f.code === 'plugin-hooks-not-run')?.message).toContain(
      'before_prompt_build (blocked, as OpenClaw blocks it',
    );
    expect(rec.findings.find((f) => f.code === 'plugin-hooks-not-run')?.message).toContain(
      'before_agent_start (OpenClaw 2026.8+ has no before_agent_start hook',
    );
  });

  it("as 2026.7, before_agent_start's context follows before_prompt_build's before the prompt", async () => {
    const rec = await replayHookLane({ pluginConfig: { promptContext: 'Recall', agentStartContext: 'Start' } });
    const turns = turnsOf(rec);
    const prompt = 'tell me about gamma';
    expect(turns[2]!.promptHooks).toEqual({
      prependContext: `Recall (${turns[2]!.assembled.length} messages)\n\nStart (prompt ${prompt.length} chars)`,
    });
  });

  it('an engine that owns compaction gets the owning path payloads (messageCount -1)', async () => {
    const rec = await replayHookLane({ pluginConfig: { ownsCompaction: true }, manualCompactions: [{ turn: 2 }] });
    const turns = turnsOf(rec);
    const compaction = turns[2]!.events.find((e) => e.type === 'compaction');
    expect(compaction).toMatchObject({ trigger: 'manual', compacted: true });
    const seen = JSON.parse(turns[3]!.systemPromptAddition!.replace(/^hooks seen: /, '')) as {
      compactions: Record<string, unknown>[];
    };
    expect(seen.compactions).toEqual([
      {
        phase: 'before',
        messageCount: -1,
        sessionFile: expect.stringMatching(/\.jsonl$/) as unknown,
        ctxKeys: ['agentId', 'sessionId', 'sessionKey', 'workspaceDir'],
      },
      {
        phase: 'after',
        messageCount: -1,
        compactedCount: -1,
        tokenCount: compaction!.type === 'compaction' ? compaction!.tokensAfter : null,
        sessionFile: expect.stringMatching(/\.jsonl$/) as unknown,
      },
    ]);
  });

  it("the harness's auto-compaction passes the session messages and only the session key", async () => {
    const rec = await replayHookLane({ pluginConfig: {}, contextWindow: 24_000, repeat: 4000 });
    const turns = turnsOf(rec);
    const at = turns.findIndex((t) => t.events.some((e) => e.type === 'compaction' && e.trigger === 'auto'));
    expect(at).toBeGreaterThanOrEqual(0);
    const next = turns[at + 1]!;
    const seen = JSON.parse(next.systemPromptAddition!.replace(/^hooks seen: /, '')) as {
      compactions: Record<string, unknown>[];
    };
    const messagesBefore = turns[at]!.assembled.length + turns[at]!.newMessageKeys.length;
    expect(seen.compactions).toEqual([
      {
        phase: 'before',
        messageCount: messagesBefore,
        messages: messagesBefore,
        sessionFile: expect.stringMatching(/\.jsonl$/) as unknown,
        ctxKeys: ['sessionKey'],
      },
      {
        phase: 'after',
        messageCount: next.assembled.length,
        compactedCount: 1,
        sessionFile: expect.stringMatching(/\.jsonl$/) as unknown,
      },
    ]);
  });
  it('tool_result_persist rewrites the tool results the lane transcript holds; its twin keeps them', async () => {
    const b = new SessionBuilder();
    b.user('read the log');
    b.assistant('reading', {
      toolCalls: [{ type: 'toolCall', id: 'c1', name: 'read', arguments: { path: 'app.log' } }],
    });
    const result = b.toolResult('c1', 'read', 'line\n'.repeat(500));
    b.assistant('the log repeats one line');
    b.turn('thanks');
    const replay = async (pluginConfig: Record<string, unknown>) => {
      const workDir = tempDir('cs-plugin-hooks-');
      dirs.push(workDir);
      const rec = await replaySession({
        session: b.loaded(),
        lanes: [{ engine: { kind: 'plugin', plugin: FIXTURE, pluginConfig }, contextWindow: 32_000 }],
        plugins: { allowExecute: true },
        workDir,
      });
      return { rec, turns: turnsOf(rec) };
    };
    const cut = await replay({ persistMaxChars: 100 });
    expect(cut.turns[0]!.hooks?.find((r) => r.name === 'tool_result_persist')).toEqual({
      name: 'tool_result_persist',
      handlers: 1,
      changed: true,
      summary: expect.stringMatching(/^rewrote 1 of 1 tool results \(\d+ → \d+ chars\)$/) as unknown,
    });
    const kept = cut.turns[1]!.assembled.find((a) => a.sourceKey === result.id);
    expect(kept?.provenance).toBe('modified');
    const text = JSON.stringify(cut.rec.messages[kept!.key]!.message);
    expect(text).toContain('[cut by hook-context: 2400 chars]');
    expect(kept!.estTokens).toBeLessThan(cut.rec.messages[result.id]!.estTokens);

    const twin = await replay({});
    expect(twin.turns[0]!.hooks?.find((r) => r.name === 'tool_result_persist')).toMatchObject({ changed: false });
    expect(twin.turns[1]!.assembled.find((a) => a.key === result.id)?.provenance).toBe('raw');
  });
});

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CompactionEntry, SessionEntry, ToolCall } from '../../../src/contract';
import {
  buildSessionContext,
  collectSpawnRecords,
  generateSession,
  getActivePath,
  parseSessionText,
  readSessionFile,
  serializeSessionEntries,
  writeGeneratedSessions,
} from '../../../src/transcripts';

const tmp = () => mkdtempSync(join(tmpdir(), 'cs-gen-'));
const text = (s: { header: Parameters<typeof serializeSessionEntries>[0]; entries: SessionEntry[] }) =>
  serializeSessionEntries(s.header, s.entries);

describe('generateSession', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = generateSession({ turns: 20, seed: 'demo', subagents: 3 });
    const b = generateSession({ turns: 20, seed: 'demo', subagents: 3 });
    const c = generateSession({ turns: 20, seed: 'other', subagents: 3 });
    expect(a.sessions.map(text)).toEqual(b.sessions.map(text));
    expect(a.store).toEqual(b.store);
    expect(text(c.sessions[0]!)).not.toBe(text(a.sessions[0]!));
  });

  it('1000 turns give at least 6000 messages and 2 M characters, and read back strictly with no problems', () => {
    const set = generateSession({ turns: 1000, seed: 1 });
    const file = text(set.sessions[0]!);
    expect(set.stats.turns).toBe(1000);
    expect(set.stats.messages).toBeGreaterThanOrEqual(6000);
    expect(set.stats.chars).toBe(file.length);
    expect(file.length).toBeGreaterThanOrEqual(2_000_000);
    const loaded = parseSessionText(file, 'gen.jsonl', 'strict');
    expect(loaded.problems).toEqual([]);
    expect(loaded.entries.filter((e) => e.type === 'message')).toHaveLength(set.stats.messages);
    const userTurns = getActivePath(loaded).filter((e) => e.type === 'message' && e.message.role === 'user');
    expect(userTurns).toHaveLength(1000);
  });

  it('assistant usage grows with the context, and stop reasons are toolUse for tool calls, stop otherwise', () => {
    const set = generateSession({ turns: 8, seed: 3, compaction: false });
    const assistants = set.sessions[0]!.entries.flatMap((e) =>
      e.type === 'message' && e.message.role === 'assistant' ? [e.message] : [],
    );
    for (const m of assistants) {
      const u = m.usage!;
      expect(u.totalTokens).toBe(u.input + u.output + u.cacheRead + u.cacheWrite);
      expect(m.stopReason).toBe(m.content.some((b) => b.type === 'toolCall') ? 'toolUse' : 'stop');
    }
    const prompts = assistants.map((m) => m.usage!.input + m.usage!.cacheRead + m.usage!.cacheWrite);
    expect(prompts.at(-1)!).toBeGreaterThan(prompts[0]! * 3);
  });

  it('records compactions whose first kept entry is an earlier message on the active path, never a tool result', () => {
    const set = generateSession({ turns: 40, seed: 5, contextWindow: 32_000 });
    const loaded = parseSessionText(text(set.sessions[0]!), 'g.jsonl', 'strict');
    const path = getActivePath(loaded);
    const compactions = path.filter((e): e is CompactionEntry => e.type === 'compaction');
    expect(compactions.length).toBe(set.stats.compactions);
    expect(compactions.length).toBeGreaterThan(0);
    for (const c of compactions) {
      const at = path.indexOf(c);
      const kept = path.findIndex((e) => e.id === c.firstKeptEntryId);
      expect(kept).toBeGreaterThanOrEqual(0);
      expect(kept).toBeLessThan(at);
      const keptEntry = path[kept]!;
      expect(keptEntry.type === 'message' && keptEntry.message.role === 'toolResult').toBe(false);
      expect(c.tokensBefore).toBeGreaterThan(32_000 - 20_000);
      expect(c.summary).toContain('## Goal');
    }
    expect(buildSessionContext(loaded).messages[0]!.role).toBe('compactionSummary');
  });

  it('contains a side branch (leaf entry + branch_summary), model and thinking changes, images, CJK and emoji', () => {
    const set = generateSession({ turns: 12, seed: 9 });
    const entries = set.sessions[0]!.entries;
    const types = new Set(entries.map((e) => e.type));
    for (const t of [
      'leaf',
      'branch_summary',
      'model_change',
      'thinking_level_change',
      'custom',
      'custom_message',
      'session_info',
      'label',
    ])
      expect(types).toContain(t);
    const loaded = parseSessionText(text(set.sessions[0]!), 'g.jsonl', 'strict');
    const active = new Set(getActivePath(loaded).map((e) => e.id));
    const summary = entries.find((e) => e.type === 'branch_summary')!;
    expect(active.has(summary.id)).toBe(true);
    expect(active.has((summary as { fromId: string }).fromId)).toBe(false);
    expect(set.stats.branches).toBe(1);
    const file = text(set.sessions[0]!);
    expect(file).toMatch(/"type":"image","data":"iVBORw0KGgo/);
    expect(file).toMatch(/[\u4e00-\u9fff]/);
    expect(file).toMatch(/\p{Extended_Pictographic}/u);
  });

  it('subagents: accepted spawns have child sessions linked in sessions.json; one spawn fails', async () => {
    const set = generateSession({ turns: 12, seed: 4, subagents: 3 });
    const [parent, ...children] = set.sessions;
    const spawns = collectSpawnRecords(parent!.entries);
    expect(spawns).toHaveLength(3);
    expect(spawns.map((s) => s.status)).toEqual(['accepted', 'accepted', 'error']);
    expect(spawns[2]!.error).toMatch(/subagent limit reached/);
    expect(spawns.map((s) => s.arguments.context)).toEqual(['fork', 'isolated', 'isolated']);
    for (const s of spawns)
      expect(s.arguments).toMatchObject({
        mode: 'run',
        cleanup: expect.stringMatching(/^(keep|delete)$/),
        task: expect.any(String),
      });
    expect(children.map((c) => c.sessionKey)).toEqual([spawns[0]!.childSessionKey, spawns[1]!.childSessionKey]);
    for (const child of children) {
      expect(child.sessionKey).toMatch(/^agent:main:subagent:[0-9a-f-]{36}$/);
      expect(set.store[child.sessionKey]).toMatchObject({
        sessionId: child.sessionId,
        sessionFile: child.fileName,
        spawnedBy: 'agent:main:main',
      });
    }
    // the fork child starts with the parent's branch (same ids) and names its parent transcript
    const fork = children[0]!;
    expect(set.store[fork.sessionKey]!.forkedFromParent).toBe(true);
    expect(fork.header.parentSession).toBe(parent!.fileName);
    expect(fork.entries[0]!.id).toBe(parent!.entries[0]!.id);
    expect(set.store[children[1]!.sessionKey]!.forkedFromParent).toBeUndefined();
    expect(set.store['agent:main:main']).toMatchObject({ sessionId: parent!.sessionId, sessionFile: parent!.fileName });

    const out = tmp();
    const written = await writeGeneratedSessions(set, out);
    expect(readdirSync(written.sessionsDir).sort()).toEqual(
      [...set.sessions.map((s) => s.fileName), 'sessions.json'].sort(),
    );
    expect(JSON.parse(readFileSync(written.storePath, 'utf8'))).toEqual(set.store);
    for (const file of written.files) expect((await readSessionFile(file, { mode: 'strict' })).problems).toEqual([]);
  });

  it('spawn tool calls carry the documented argument shape', () => {
    const set = generateSession({ turns: 10, seed: 2, subagents: 2 });
    const calls = set.sessions[0]!.entries.flatMap((e) =>
      e.type === 'message' && e.message.role === 'assistant'
        ? e.message.content.filter((b): b is ToolCall => b.type === 'toolCall' && b.name === 'sessions_spawn')
        : [],
    );
    expect(calls.map((c) => Object.keys(c.arguments))).toEqual([
      ['task', 'label', 'context', 'cleanup', 'mode'],
      ['task', 'label', 'context', 'cleanup', 'mode'],
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '../../../src/contract';
import {
  buildContextFromPath,
  buildSessionContext,
  getActivePath,
  parseSessionText,
  serializeSessionEntries,
} from '../../../src/transcripts';
import { HEADER, assistant, call, chain, entry, message, result, user } from './entryBuilders';

const roles = (ctx: { messages: { role: string }[] }) => ctx.messages.map((m) => m.role);

describe('buildContextFromPath', () => {
  it('without a boundary, emits every message entry in order with its entry id', () => {
    const path = chain(
      (p) => message('m1', p, user('one')),
      (p) => entry({ type: 'custom', id: 'c1', parentId: p, customType: 'state', data: { x: 1 } }),
      (p) => message('m2', p, assistant('two')),
    );
    const ctx = buildContextFromPath(path);
    expect(ctx.messages).toEqual([
      path[0]!.type === 'message' && path[0]!.message,
      path[2]!.type === 'message' && path[2]!.message,
    ]);
    expect(ctx.messageEntryIds).toEqual(['m1', 'm2']);
  });

  it('a compaction emits its summary first, then the kept entries from firstKeptEntryId, then later entries', () => {
    const path = chain(
      (p) => message('m1', p, user('old')),
      (p) => message('m2', p, assistant('kept')),
      (p) => message('m3', p, user('also kept')),
      (p) =>
        entry({ type: 'compaction', id: 'k1', parentId: p, summary: 'SUM', firstKeptEntryId: 'm2', tokensBefore: 900 }),
      (p) => message('m4', p, assistant('after')),
    );
    const ctx = buildContextFromPath(path);
    expect(roles(ctx)).toEqual(['compactionSummary', 'assistant', 'user', 'assistant']);
    expect(ctx.messageEntryIds).toEqual(['k1', 'm2', 'm3', 'm4']);
    expect(ctx.messages[0]).toEqual({
      role: 'compactionSummary',
      summary: 'SUM',
      tokensBefore: 900,
      timestamp: Date.parse(path[3]!.timestamp),
    });
  });

  it('only the last compaction counts; a firstKeptEntryId not on the path keeps nothing from before it', () => {
    const path = chain(
      (p) => message('m1', p, user('a')),
      (p) =>
        entry({ type: 'compaction', id: 'k1', parentId: p, summary: 'first', firstKeptEntryId: 'm1', tokensBefore: 1 }),
      (p) => message('m2', p, user('b')),
      (p) =>
        entry({
          type: 'compaction',
          id: 'k2',
          parentId: p,
          summary: 'second',
          firstKeptEntryId: 'elsewhere',
          tokensBefore: 2,
        }),
      (p) => message('m3', p, user('c')),
    );
    const ctx = buildContextFromPath(path);
    expect(ctx.messageEntryIds).toEqual(['k2', 'm3']);
    expect((ctx.messages[0] as { summary: string }).summary).toBe('second');
  });

  it('a reset emits nothing and keeps only the tool-pair-safe entries from its firstKeptEntryId', () => {
    const path = chain(
      (p) => message('m1', p, user('dropped, before firstKept')),
      (p) => message('r0', p, result('orphan-call')), // first kept, but its call is not kept
      (p) => message('a1', p, assistant('calls', [call('t1')])),
      (p) => message('r1', p, result('t1')),
      (p) => message('r1b', p, result('t1')), // a second answer to the same call is not kept
      (p) => entry({ type: 'custom_message', id: 'cm', parentId: p, customType: 'note', content: 'x', display: true }),
      (p) => message('u2', p, user('hidden but reset-retained', { excludeFromContext: true })),
      (p) => entry({ type: 'reset', id: 'rs', parentId: p, reason: 'reset', firstKeptEntryId: 'r0' }),
      (p) => message('u3', p, user('fresh')),
    );
    const ctx = buildContextFromPath(path);
    expect(ctx.messageEntryIds).toEqual(['a1', 'r1', 'u2', 'u3']);
  });

  it('skips excludeFromContext messages and empty branch summaries; custom_message and branch_summary become messages', () => {
    const path = chain(
      (p) => message('m1', p, user('visible')),
      (p) => message('m2', p, user('hidden', { excludeFromContext: true })),
      (p) => entry({ type: 'branch_summary', id: 'b0', parentId: p, fromId: 'x', summary: '' }),
      (p) => entry({ type: 'branch_summary', id: 'b1', parentId: p, fromId: 'x', summary: 'went elsewhere' }),
      (p) =>
        entry({
          type: 'custom_message',
          id: 'c1',
          parentId: p,
          customType: 'memory',
          content: 'recall',
          display: false,
          details: { k: 1 },
        }),
    );
    const ctx = buildContextFromPath(path);
    expect(ctx.messageEntryIds).toEqual(['m1', 'b1', 'c1']);
    expect(ctx.messages[1]).toEqual({
      role: 'branchSummary',
      summary: 'went elsewhere',
      fromId: 'x',
      timestamp: Date.parse(path[3]!.timestamp),
    });
    expect(ctx.messages[2]).toEqual({
      role: 'custom',
      customType: 'memory',
      content: 'recall',
      display: false,
      details: { k: 1 },
      timestamp: Date.parse(path[4]!.timestamp),
    });
  });

  it('strips a server-compaction replay checkpoint from retained assistant messages only', () => {
    const replay = { type: 'anthropic-compaction', data: 'opaque' };
    const path = chain(
      (p) => message('a0', p, assistant('retained', [], { providerReplay: replay })),
      (p) =>
        entry({ type: 'compaction', id: 'k1', parentId: p, summary: 'S', firstKeptEntryId: 'a0', tokensBefore: 5 }),
      (p) => message('a1', p, assistant('current', [], { providerReplay: replay })),
    );
    const ctx = buildContextFromPath(path);
    expect(ctx.messages[1]).not.toHaveProperty('providerReplay');
    expect(ctx.messages[2]).toHaveProperty('providerReplay', replay);
  });

  it('thinking level is the last change (default off); model is the later of model_change and assistant provider/model', () => {
    const base = chain((p) => message('m1', p, user('x')));
    expect(buildContextFromPath(base)).toMatchObject({ thinkingLevel: 'off', model: null });
    const path = chain(
      (p) => entry({ type: 'thinking_level_change', id: 't1', parentId: p, thinkingLevel: 'low' }),
      (p) => entry({ type: 'model_change', id: 'mc', parentId: p, provider: 'openai', modelId: 'gpt-5.1' }),
      (p) => message('a1', p, assistant('x')),
      (p) => entry({ type: 'thinking_level_change', id: 't2', parentId: p, thinkingLevel: 'high' }),
    );
    expect(buildContextFromPath(path)).toMatchObject({
      thinkingLevel: 'high',
      model: { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
    });
    const later = [
      ...path,
      entry({ type: 'model_change', id: 'mc2', parentId: 't2', provider: 'openai', modelId: 'gpt-5.1' }),
    ];
    expect(buildContextFromPath(later).model).toEqual({ provider: 'openai', modelId: 'gpt-5.1' });
  });
});

describe('active branch', () => {
  function load(entries: SessionEntry[]) {
    return parseSessionText(serializeSessionEntries(HEADER, entries), 'mem.jsonl', 'strict');
  }

  it('the leaf is the last appended entry; a leaf entry moves it and the next entry hangs from its target', () => {
    const session = load([
      message('m1', null, user('root')),
      message('m2', 'm1', assistant('first answer')),
      entry({ type: 'leaf', id: 'l1', parentId: 'm2', targetId: 'm1' }),
      message('m3', 'm1', assistant('second answer')),
    ]);
    expect(session.leafId).toBe('m3');
    expect(getActivePath(session).map((e) => e.id)).toEqual(['m1', 'm3']);
    expect(getActivePath(session, 'm2').map((e) => e.id)).toEqual(['m1', 'm2']);
    expect(buildSessionContext(session, 'm2').messageEntryIds).toEqual(['m1', 'm2']);
  });

  it('a leaf entry with targetId null empties the active branch', () => {
    const session = load([
      message('m1', null, user('x')),
      entry({ type: 'leaf', id: 'l1', parentId: 'm1', targetId: null }),
    ]);
    expect(session.leafId).toBeNull();
    expect(getActivePath(session)).toEqual([]);
    expect(buildSessionContext(session).messages).toEqual([]);
  });

  it('side appends advance the append cursor, not the leaf; an entry under the cursor hangs logically off the leaf', () => {
    const session = load([
      message('m1', null, user('x')),
      entry({ type: 'custom', id: 's1', parentId: 'm1', customType: 'bg', appendMode: 'side' }),
      message('m2', 's1', assistant('y')),
    ]);
    expect(session.problems).toEqual([]);
    expect(session.leafId).toBe('m2');
    // m2's raw parent is the side entry, but on the branch it follows the visible leaf m1.
    expect(getActivePath(session).map((e) => e.id)).toEqual(['m1', 'm2']);
  });

  it('unknown entry types do not move the leaf', () => {
    const session = parseSessionText(
      serializeSessionEntries(HEADER, [
        message('m1', null, user('x')),
        entry({ type: 'telemetry', id: 'x1', parentId: 'm1' }),
      ]),
      'mem.jsonl',
      'tolerant',
    );
    expect(session.leafId).toBe('m1');
    expect(session.appendParentId).toBe('x1');
  });

  it('getActivePath stops at a cycle or a missing parent instead of looping or throwing', () => {
    const cyclic = parseSessionText(
      serializeSessionEntries(HEADER, [message('a', 'b', user('a')), message('b', 'a', user('b'))]),
      'mem.jsonl',
      'tolerant',
    );
    expect(getActivePath(cyclic).map((e) => e.id)).toEqual(['a', 'b']);
    const orphan = parseSessionText(
      serializeSessionEntries(HEADER, [message('a', 'missing', user('a'))]),
      'mem.jsonl',
      'tolerant',
    );
    expect(getActivePath(orphan).map((e) => e.id)).toEqual(['a']);
  });
});

import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../src/contract';
import {
  buildReferenceIndex,
  classifyAssembled,
  classifyOmitted,
  hashKeyOf,
  type ClassifyContext,
} from '../../../src/replay';
import { COMPACTION_SUMMARY_PREFIX } from '../../../src/transcripts';

const u1: AgentMessage = { role: 'user', content: 'first question', timestamp: 1000 };
const a1: AgentMessage = {
  role: 'assistant',
  content: [{ type: 'toolCall', id: 'call-1', name: 'read', arguments: { path: 'a.ts' } }],
  stopReason: 'toolUse',
  timestamp: 2000,
};
const t1: AgentMessage = {
  role: 'toolResult',
  toolCallId: 'call-1',
  toolName: 'read',
  content: [{ type: 'text', text: 'x'.repeat(500) }],
  isError: false,
  timestamp: 3000,
};
const a2: AgentMessage = {
  role: 'assistant',
  content: [{ type: 'text', text: 'done' }],
  stopReason: 'stop',
  timestamp: 4000,
};
const u2: AgentMessage = { role: 'user', content: 'second question', timestamp: 5000 };
const reference = [
  { key: 'u1', message: u1 },
  { key: 'a1', message: a1 },
  { key: 't1', message: t1 },
  { key: 'a2', message: a2 },
  { key: 'u2', message: u2 },
].map((r) => ({ ...r, hashKey: hashKeyOf(r.message) }));

function context(overrides: Partial<ClassifyContext> = {}): ClassifyContext {
  const identity = new Map<object, string>(reference.map((r) => [r.message as object, r.key]));
  return {
    reference: buildReferenceIndex(reference),
    identityKey: (m) => identity.get(m as object),
    hashKey: (m) => hashKeyOf(m),
    ...overrides,
  };
}

describe('provenance of assembled messages', () => {
  it('the very object the host passed in is raw under its entry key', () => {
    expect(classifyAssembled([u1, a2], context())).toEqual([
      { key: 'u1', provenance: 'raw' },
      { key: 'a2', provenance: 'raw' },
    ]);
  });

  it('a deep copy (as after IPC) is still raw, found by content', () => {
    const copy = JSON.parse(JSON.stringify(t1)) as AgentMessage;
    expect(classifyAssembled([copy], context())).toEqual([{ key: 't1', provenance: 'raw' }]);
  });

  it('a truncated tool result is modified, linked to its source by toolCallId', () => {
    const truncated = {
      ...t1,
      content: [{ type: 'text' as const, text: 'x'.repeat(100) + ' [truncated]' }],
    } as AgentMessage;
    const [c] = classifyAssembled([truncated], context());
    expect(c).toEqual({ key: hashKeyOf(truncated), provenance: 'modified', sourceKey: 't1' });
  });

  it('a rewritten user message is modified, matched by role and timestamp', () => {
    const rewritten = { ...u2, content: 'second question (shortened)' } as AgentMessage;
    expect(classifyAssembled([rewritten], context())[0]).toMatchObject({ provenance: 'modified', sourceKey: 'u2' });
  });

  it('an injected message with no counterpart is synthetic', () => {
    const injected: AgentMessage = { role: 'user', content: 'Remember: be brief.', timestamp: 99 };
    expect(classifyAssembled([injected], context())[0]).toEqual({ key: hashKeyOf(injected), provenance: 'synthetic' });
  });

  it('a compaction summary known to the host covers everything before its first kept entry', () => {
    const summary: AgentMessage = {
      role: 'compactionSummary',
      summary: 'earlier work',
      tokensBefore: 900,
      timestamp: 4500,
    };
    const ctx = context({
      identityKey: (m) => (m === summary ? 'cmp1' : undefined),
      knownSummary: (key) => (key === 'cmp1' ? { coversBeforeEntryId: 'a2' } : undefined),
    });
    const classified = classifyAssembled([summary, a2, u2], ctx);
    expect(classified[0]).toEqual({ key: 'cmp1', provenance: 'summary', covers: [[0, 3]] });
    const omitted = classifyOmitted(5, classified, ctx.reference);
    expect(omitted).toEqual({ dropped: [], summarized: [[0, 3]], droppedCount: 0, summarizedCount: 3, keptCount: 2 });
  });

  it('engine-marked summaries link to the entry ids they name', () => {
    const marked = {
      role: 'user',
      content: 'summary of the read',
      timestamp: 7,
      details: { coversEntryIds: ['a1', 't1', 'nope'] },
    } as AgentMessage;
    const [c] = classifyAssembled([marked], context());
    expect(c).toEqual({ key: hashKeyOf(marked), provenance: 'summary', covers: [[1, 3]] });
    const omitted = classifyOmitted(4, [c], context().reference);
    expect(omitted).toEqual({
      dropped: [
        [0, 1],
        [3, 4],
      ],
      summarized: [[1, 3]],
      droppedCount: 2,
      summarizedCount: 2,
      keptCount: 0,
    });
  });

  it('a summary that does not say what it covers stands in for the prefix before the raw messages after it', () => {
    const summary = {
      role: 'user',
      content: [{ type: 'text', text: '[summary-tree L0 #1 covers msgs 1-3]\nread a.ts' }],
      timestamp: 3000,
    } as AgentMessage;
    const classified = classifyAssembled([summary, a2, u2], context());
    expect(classified[0]).toEqual({ key: hashKeyOf(summary), provenance: 'summary', implicitCovers: true });
    expect(classifyOmitted(5, classified, context().reference)).toMatchObject({
      summarized: [[0, 3]],
      dropped: [],
      keptCount: 2,
    });
  });

  it("OpenClaw's compaction wrapper text marks a converted summary", () => {
    const converted: AgentMessage = {
      role: 'user',
      content: `${COMPACTION_SUMMARY_PREFIX}old stuff\n</summary>`,
      timestamp: 1,
      synthetic: true,
    };
    expect(classifyAssembled([converted], context())[0].provenance).toBe('summary');
  });

  it('history messages neither kept nor covered are dropped, as ranges', () => {
    const classified = classifyAssembled([u1, u2], context());
    expect(classifyOmitted(4, classified, context().reference)).toEqual({
      dropped: [[1, 4]],
      summarized: [],
      droppedCount: 3,
      summarizedCount: 0,
      keptCount: 1,
    });
  });
});
describe('the reference index hashes only when a lookup by content needs it', () => {
  function countedReference() {
    const hashed: string[] = [];
    const entries = reference.map((r) => ({
      ...r,
      hashKey: () => {
        hashed.push(r.key);
        return hashKeyOf(r.message);
      },
    }));
    return { index: buildReferenceIndex(entries), hashed };
  }

  it('classifies messages known by identity, tool call id or timestamp without hashing the reference', () => {
    const { index, hashed } = countedReference();
    const identity = new Map<object, string>(reference.map((r) => [r.message as object, r.key]));
    const out = classifyAssembled([u1, a2], {
      reference: index,
      identityKey: (m) => identity.get(m as object),
      hashKey: hashKeyOf,
    });
    expect(out.map((c) => c.provenance)).toEqual(['raw', 'raw']);
    expect(index.position.get('t1')).toBe(2);
    expect(index.byToolCallId.get('call-1')).toBe('t1');
    expect(hashed).toEqual([]);
  });

  it("hashes every reference message once, at the first lookup by content, with the eager index's answers", () => {
    const { index, hashed } = countedReference();
    const copies = [t1, u2, a1].map((m) => JSON.parse(JSON.stringify(m)) as AgentMessage);
    const lazy = classifyAssembled(copies, { reference: index, hashKey: hashKeyOf });
    expect(hashed).toEqual(['u1', 'a1', 't1', 'a2', 'u2']);
    expect(lazy).toEqual(classifyAssembled(copies, { reference: buildReferenceIndex(reference), hashKey: hashKeyOf }));
    expect(lazy.map((c) => c.key)).toEqual(['t1', 'u2', 'a1']);
    classifyAssembled(copies, { reference: index, hashKey: hashKeyOf });
    expect(hashed).toHaveLength(5);
  });
});

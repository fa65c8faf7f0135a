import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry } from '../../../src/contract';
import {
  buildContextFromPath,
  projectSessionEntryMessage,
  selectResetKeptEntries,
  type SessionContext,
} from '../../../src/transcripts';
import { stripCompactionReplayCheckpoint } from '../../../src/transcripts/projectEntryMessage';
import { assistant, call, result, user } from './entryBuilders';

/** The straightforward forward-scanning implementation buildContextFromPath had before it read paths backwards. */
function referenceContext(path: readonly SessionEntry[]): SessionContext {
  let thinkingLevel = 'off';
  let model: SessionContext['model'] = null;
  let boundaryIndex = -1;
  for (let i = 0; i < path.length; i++) {
    const entry = path[i]!;
    if (entry.type === 'thinking_level_change') thinkingLevel = entry.thinkingLevel;
    else if (entry.type === 'model_change') model = { provider: entry.provider, modelId: entry.modelId };
    else if (entry.type === 'message' && entry.message.role === 'assistant') {
      const { provider, model: modelId } = entry.message;
      if (typeof provider === 'string' && typeof modelId === 'string') model = { provider, modelId };
    }
    if (entry.type === 'reset' || entry.type === 'compaction') boundaryIndex = i;
  }
  const boundary = boundaryIndex >= 0 ? path[boundaryIndex] : undefined;
  let firstKeptIndex = boundaryIndex;
  if (boundary && (boundary.type === 'compaction' || boundary.type === 'reset') && boundary.firstKeptEntryId) {
    const found = path.findIndex((e) => e.id === boundary.firstKeptEntryId);
    if (found >= 0 && found < boundaryIndex) firstKeptIndex = found;
  }
  const resetKept =
    boundary?.type === 'reset' ? selectResetKeptEntries(path.slice(firstKeptIndex, boundaryIndex)) : undefined;
  const messages: AgentMessage[] = [];
  const messageEntryIds: (string | undefined)[] = [];
  if (boundary?.type === 'compaction') {
    const summary = projectSessionEntryMessage(boundary);
    if (summary) {
      messages.push(summary);
      messageEntryIds.push(boundary.id);
    }
  }
  for (let i = 0; i < path.length; i++) {
    if (i === boundaryIndex) continue;
    const entry = path[i]!;
    const retained = i < boundaryIndex;
    if (retained && (i < firstKeptIndex || (resetKept && !resetKept.has(entry)))) continue;
    const context = retained ? (resetKept ? 'reset-retained' : 'retained') : 'current';
    let message: AgentMessage | undefined;
    if (entry.type === 'message')
      message = context === 'reset-retained' ? entry.message : projectSessionEntryMessage(entry);
    else if (entry.type === 'custom_message') message = projectSessionEntryMessage(entry);
    else if (entry.type === 'branch_summary') message = entry.summary ? projectSessionEntryMessage(entry) : undefined;
    if (!message) continue;
    if (context !== 'current' && message.role === 'assistant') message = stripCompactionReplayCheckpoint(message);
    messages.push(message);
    messageEntryIds.push(entry.id);
  }
  return { messages, messageEntryIds, thinkingLevel, model };
}

// ids are drawn from a small set so firstKeptEntryId hits earlier entries, later entries, duplicates and nothing
const idArb = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'zz');
const callIdArb = fc.constantFrom('t1', 't2', 't3');
const messageArb: fc.Arbitrary<AgentMessage> = fc.oneof(
  fc.constantFrom('hi', 'next').map((t) => user(t)),
  fc.constant(user('hidden', { excludeFromContext: true })),
  fc.constantFrom('ok', 'done').map((t) => assistant(t)),
  fc.constant(assistant('no model', [], { provider: undefined, model: undefined } as never)),
  fc.constant(assistant('other model', [], { provider: 'openai', model: 'gpt-5' })),
  callIdArb.map((id) => assistant('calling', [call(id)])),
  fc.constant(assistant('checkpoint', [], { providerReplay: { type: 'anthropic-compaction', data: 'x' } } as never)),
  callIdArb.map((id) => result(id)),
);
const entryArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 8, arbitrary: messageArb.map((message) => ({ type: 'message', message })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('low', 'high')
      .map((thinkingLevel) => ({ type: 'thinking_level_change', thinkingLevel })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('m1', 'm2').map((modelId) => ({ type: 'model_change', provider: 'p', modelId })),
  },
  {
    weight: 1,
    arbitrary: idArb.map((firstKeptEntryId) => ({
      type: 'compaction',
      summary: 'SUM',
      firstKeptEntryId,
      tokensBefore: 5,
    })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'compaction', summary: 'no kept', tokensBefore: 5 }) },
  { weight: 1, arbitrary: idArb.map((firstKeptEntryId) => ({ type: 'reset', firstKeptEntryId })) },
  { weight: 1, arbitrary: fc.constant({ type: 'custom_message', customType: 'note', content: 'n', display: true }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', 'branch').map((summary) => ({ type: 'branch_summary', summary, fromId: 'a' })),
  },
  { weight: 1, arbitrary: fc.constant({ type: 'custom', customType: 'state', data: {} }) },
);
const pathArb = fc.array(fc.tuple(idArb, entryArb), { maxLength: 40 }).map((items) =>
  items.map(
    ([id, fields], i) =>
      ({
        ...fields,
        id,
        parentId: null,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
      }) as unknown as SessionEntry,
  ),
);

describe('buildContextFromPath (property)', () => {
  it('equals the straightforward forward scan on random paths (boundaries, kept ids before/after/missing, duplicates)', () => {
    fc.assert(
      fc.property(pathArb, (path) => {
        expect(buildContextFromPath(path)).toEqual(referenceContext(path));
      }),
      { numRuns: 3000 },
    );
  });
});

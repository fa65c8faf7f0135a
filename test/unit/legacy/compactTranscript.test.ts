import { describe, expect, it } from 'vitest';
import type { CompactionEntry, SessionEntry } from '../../../src/contract';
import {
  compactTranscript,
  MAX_COMPACTION_SUMMARY_CHARS,
  NO_PRIOR_HISTORY,
  prepareCompaction,
  SUMMARY_TRUNCATED_MARKER,
  TURN_CONTEXT_PREFIX,
} from '../../../src/engines/legacy';
import type { Summarizer, SummaryRequest } from '../../../src/summarize';
import { buildContextFromPath } from '../../../src/transcripts';
import { assistantCall, assistantText, branch, toolResult, transcriptOf, usage, user } from './helpers';

const t = (n: number) => 'x'.repeat(4 * n);
const SETTINGS = { enabled: true, reserveTokens: 1000, keepRecentTokens: 300 };

/** A coding session: 4 turns of ~230 estimate tokens, with read/edit/write tool calls. */
function session(): SessionEntry[] {
  return branch([
    user(`Turn one: refactor src/app.ts ${t(50)}`), // e1
    assistantCall('c1', 'read', { path: 'src/app.ts' }, 'reading'), // e2
    toolResult('c1', 'read', t(100)), // e3
    assistantText(`done one ${t(50)}`), // e4
    user(`Turn two ${t(50)}`), // e5
    assistantCall('c2', 'edit', { path: 'src/app.ts' }), // e6
    toolResult('c2', 'edit', t(100)), // e7
    assistantText(`done two ${t(50)}`), // e8
    user(`Turn three ${t(50)}`), // e9
    assistantCall('c3', 'write', { file_path: 'docs/notes.md' }), // e10
    toolResult('c3', 'write', t(100)), // e11
    assistantText(`done three ${t(50)}`), // e12
    user(`Turn four ${t(50)}`), // e13
    assistantText(`done four ${t(50)}`), // e14
  ]);
}

/** Records every request; answers with a fixed text per kind. */
function recordingSummarizer(answers: Partial<Record<SummaryRequest['kind'], string>> = {}) {
  const requests: SummaryRequest[] = [];
  const summarizer: Summarizer = {
    id: 'recording',
    async summarize(request) {
      requests.push(request);
      return { summary: answers[request.kind] ?? `${request.kind} summary`, provider: 'test', model: 'test' };
    },
    async complete() {
      throw new Error('not used');
    },
  };
  return { summarizer, requests };
}

describe('compactTranscript (built-in compaction, end to end)', () => {
  it('appends a compaction entry and the rebuilt context is [compactionSummary, kept…]', async () => {
    const transcript = transcriptOf(session());
    const out = await compactTranscript({ transcript, settings: SETTINGS, force: true });
    expect(out.ok).toBe(true);
    expect(out.compacted).toBe(true);

    const path = transcript.activePath();
    const entry = path[path.length - 1] as CompactionEntry;
    expect(entry.type).toBe('compaction');
    expect(entry).toBe(out.entry);
    expect(entry.firstKeptEntryId).toBe(out.result!.firstKeptEntryId);
    expect(entry.summary).toBe(out.result!.summary);
    expect(entry.tokensBefore).toBe(out.result!.tokensBefore);

    const context = buildContextFromPath(path);
    expect(context.messages[0]).toMatchObject({ role: 'compactionSummary', summary: entry.summary });
    const keptIds = context.messageEntryIds.slice(1);
    expect(keptIds[0]).toBe(entry.firstKeptEntryId);
    // everything from the first kept entry up to the compaction, in order
    const firstKept = path.findIndex((e) => e.id === entry.firstKeptEntryId);
    expect(keptIds).toEqual(path.slice(firstKept, -1).map((e) => e.id));
  });

  it('tokensAfter < tokensBefore, and tokensBefore is the pre-compaction context estimate', async () => {
    const entries = session();
    const transcript = transcriptOf(entries);
    const out = await compactTranscript({ transcript, settings: SETTINGS, force: true });
    const before = prepareCompaction(entries, SETTINGS)!;
    expect(out.result!.tokensBefore).toBe(before.tokensBefore);
    expect(out.result!.tokensAfter!).toBeLessThan(out.result!.tokensBefore);
  });

  it('never keeps a toolResult as the first entry', async () => {
    const transcript = transcriptOf(session());
    const out = await compactTranscript({ transcript, settings: SETTINGS, force: true });
    const kept = transcript.activePath().find((e) => e.id === out.result!.firstKeptEntryId)!;
    expect(kept.type === 'message' && kept.message.role).not.toBe('toolResult');
  });

  it('records read and modified files in details and appends them to the summary', async () => {
    const transcript = transcriptOf(session());
    const { summarizer } = recordingSummarizer({ history: 'HISTORY' });
    // keep 60: e14 (53) + e13 (53) reaches it at e13, a user turn start, so no turn is split
    const out = await compactTranscript({
      transcript,
      summarizer,
      settings: { ...SETTINGS, keepRecentTokens: 60 },
      force: true,
    });
    expect(out.result!.firstKeptEntryId).toBe('e13');
    // src/app.ts was read, then edited: it is listed once, as modified
    expect(out.result!.details).toEqual({ readFiles: [], modifiedFiles: ['docs/notes.md', 'src/app.ts'] });
    expect(out.result!.summary).toBe('HISTORY\n\n<modified-files>\ndocs/notes.md\nsrc/app.ts\n</modified-files>');
  });

  it('a second compaction uses the update prompt with the previous summary and carries the file lists', async () => {
    const transcript = transcriptOf(
      branch([
        user(`Turn one ${t(50)}`), // e1 (53)
        assistantCall('c1', 'read', { path: 'a.md' }), // e2
        toolResult('c1', 'read', t(20)), // e3
        assistantText(`done one ${t(50)}`), // e4
        user(`Turn two ${t(50)}`), // e5 (53)
        assistantCall('c2', 'edit', { path: 'b.ts' }), // e6
        toolResult('c2', 'edit', 'ok'), // e7
        assistantText(`done two ${t(50)}`), // e8 (53)
      ]),
    );
    // keep 100: e8 53 + e7 1 + e6 5 + e5 53 = 112 reaches it at e5, so turn one is summarized
    const first = recordingSummarizer({ history: 'FIRST' });
    const one = await compactTranscript({
      transcript,
      summarizer: first.summarizer,
      settings: { ...SETTINGS, keepRecentTokens: 100 },
      force: true,
    });
    expect(one.result!.firstKeptEntryId).toBe('e5');
    expect(first.requests.map((r) => r.kind)).toEqual(['history']);
    expect(one.result!.details).toEqual({ readFiles: ['a.md'], modifiedFiles: [] });

    transcript.appendEntry({ type: 'message', message: user(`Turn three ${t(50)}`) });
    transcript.appendEntry({ type: 'message', message: assistantCall('c9', 'write', { filePath: 'c.ts' }) });
    transcript.appendEntry({ type: 'message', message: toolResult('c9', 'write', 'ok') });
    transcript.appendEntry({ type: 'message', message: assistantText(`done three ${t(50)}`) });
    transcript.appendEntry({ type: 'message', message: user(`Turn four ${t(50)}`) });
    transcript.appendEntry({ type: 'message', message: assistantText(`done four ${t(50)}`) });

    // keep 60: the two messages of turn four (53 + 53) reach it at its user message
    const second = recordingSummarizer({ update: 'SECOND' });
    const two = await compactTranscript({
      transcript,
      summarizer: second.summarizer,
      settings: { ...SETTINGS, keepRecentTokens: 60 },
      force: true,
    });
    expect(two.compacted).toBe(true);
    const request = second.requests[0]!;
    expect(second.requests).toHaveLength(1);
    expect(request.kind).toBe('update');
    expect(request.previousSummary).toBe(one.result!.summary);
    expect(request.prompt).toContain(`<previous-summary>\n${one.result!.summary}\n</previous-summary>`);
    // summarized now: turn two (kept last time) and turn three
    expect(request.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'assistant',
      'user',
      'assistant',
      'toolResult',
      'assistant',
    ]);
    expect(two.result!.details).toEqual({ readFiles: ['a.md'], modifiedFiles: ['b.ts', 'c.ts'] });
    expect(two.result!.summary).toBe(
      'SECOND\n\n<read-files>\na.md\n</read-files>\n\n<modified-files>\nb.ts\nc.ts\n</modified-files>',
    );
  });

  it('the deterministic update merges the previous summary', async () => {
    const transcript = transcriptOf(session());
    await compactTranscript({ transcript, settings: { ...SETTINGS, keepRecentTokens: 400 }, force: true });
    transcript.appendEntry({ type: 'message', message: user(`Turn five: also add tests ${t(50)}`) });
    transcript.appendEntry({ type: 'message', message: assistantText(`done five ${t(50)}`) });
    transcript.appendEntry({ type: 'message', message: user(`Turn six ${t(50)}`) });
    const two = await compactTranscript({ transcript, settings: { ...SETTINGS, keepRecentTokens: 20 }, force: true });
    // the first summary's goal (turn one) survives next to the newer request
    expect(two.result!.summary).toMatch(/## Goal\n- Turn one: refactor src\/app\.ts/);
    expect(two.result!.summary).toContain('Turn five: also add tests');
  });

  it('summarizes a split turn’s prefix separately and lays it out after the history', async () => {
    const entries = branch([
      user(`old turn ${t(50)}`), // e1
      assistantText(`old answer ${t(50)}`), // e2
      user(`long turn ${t(20)}`), // e3
      assistantCall('c1', 'read', { path: 'a.ts' }), // e4
      toolResult('c1', 'read', t(200)), // e5
      assistantText(`conclusion ${t(50)}`), // e6
    ]);
    const transcript = transcriptOf(entries);
    const { summarizer, requests } = recordingSummarizer({ history: 'HIST', 'turn-prefix': 'PREFIX' });
    const out = await compactTranscript({
      transcript,
      summarizer,
      settings: { ...SETTINGS, keepRecentTokens: 40 },
      force: true,
    });
    expect(out.result!.firstKeptEntryId).toBe('e6');
    expect(requests.map((r) => r.kind)).toEqual(['history', 'turn-prefix']);
    expect(requests[0]!.messages).toEqual([
      entries[0]!.type === 'message' && entries[0]!.message,
      entries[1]!.type === 'message' && entries[1]!.message,
    ]);
    expect(requests[1]!.messages).toHaveLength(3);
    // turn-prefix output budget is 0.5 × reserve, history 0.8 × reserve
    expect(requests.map((r) => r.maxTokens)).toEqual([800, 500]);
    expect(out.result!.summary).toBe(`HIST${TURN_CONTEXT_PREFIX}PREFIX\n\n<read-files>\na.ts\n</read-files>`);
  });

  it('caps the summary at 16 000 chars with the truncation marker, keeping the file lists', async () => {
    const transcript = transcriptOf(session());
    const { summarizer } = recordingSummarizer({ history: 'y'.repeat(30_000) });
    const out = await compactTranscript({
      transcript,
      summarizer,
      settings: { ...SETTINGS, keepRecentTokens: 60 },
      force: true,
    });
    const summary = out.result!.summary!;
    const lists = '\n\n<modified-files>\ndocs/notes.md\nsrc/app.ts\n</modified-files>';
    expect(summary.length).toBe(MAX_COMPACTION_SUMMARY_CHARS);
    expect(summary.endsWith(`${SUMMARY_TRUNCATED_MARKER}${lists}`)).toBe(true);
    expect(summary.startsWith('y'.repeat(100))).toBe(true);
  });

  it('carries the latest unresolved user request when asked, as a JSON string block', async () => {
    const transcript = transcriptOf(session());
    const { summarizer } = recordingSummarizer({ history: 'H' });
    const out = await compactTranscript({
      transcript,
      summarizer,
      settings: { ...SETTINGS, keepRecentTokens: 60 },
      force: true,
      latestRequestUnresolved: true,
    });
    const request = `Turn four ${t(50)}`;
    expect(out.result!.summary!.startsWith(`## Latest unresolved user request\n${JSON.stringify(request)}\n\nH`)).toBe(
      true,
    );
    expect(out.result!.details).toMatchObject({ latestUnresolvedUserRequest: request });
  });

  it('does nothing below the threshold unless forced', async () => {
    const transcript = transcriptOf(session());
    const entriesBefore = transcript.activePath().length;
    // context ≈ 930 estimate tokens; window 5000 − reserve 1000 = 4000 > 930
    const below = await compactTranscript({ transcript, settings: SETTINGS, tokenBudget: 5000 });
    expect(below).toEqual({ ok: true, compacted: false, reason: 'below threshold' });
    expect(transcript.activePath()).toHaveLength(entriesBefore);
    // a live count over the threshold makes it compact
    const over = await compactTranscript({
      transcript,
      settings: SETTINGS,
      tokenBudget: 5000,
      currentTokenCount: 4001,
    });
    expect(over.compacted).toBe(true);
  });

  it('with a live count below the threshold it does not read the transcript (linear replays)', async () => {
    const inner = transcriptOf(session());
    let reads = 0;
    const transcript = { ...inner, activePath: () => (reads++, inner.activePath()) };
    const out = await compactTranscript({ transcript, settings: SETTINGS, tokenBudget: 5000, currentTokenCount: 100 });
    expect(out.reason).toBe('below threshold');
    expect(reads).toBe(0);
  });

  it('uses provider usage for the trigger', async () => {
    const entries = branch([user(t(10)), assistantText(t(10), { usage: usage(4500) }), user(t(10))]);
    const out = await compactTranscript({
      transcript: transcriptOf(entries),
      settings: { ...SETTINGS, keepRecentTokens: 5 },
      tokenBudget: 5000,
    });
    // 4500 + 10 > 4000
    expect(out.compacted).toBe(true);
  });

  it('reports nothing to compact right after a reset, a hook compaction, or when everything is kept', async () => {
    const afterReset = transcriptOf(branch([user('a'), assistantText('b'), { type: 'reset', reason: 'new' }]));
    expect(await compactTranscript({ transcript: afterReset, settings: SETTINGS, force: true })).toEqual({
      ok: true,
      compacted: false,
      reason: 'nothing to compact',
    });
    const afterHook = transcriptOf(
      branch([
        user('a'),
        assistantText('b'),
        { type: 'compaction', summary: 's', firstKeptEntryId: 'e2', tokensBefore: 9, fromHook: true },
      ]),
    );
    expect((await compactTranscript({ transcript: afterHook, settings: SETTINGS, force: true })).reason).toBe(
      'nothing to compact',
    );
    const small = transcriptOf(branch([user('a'), assistantText('b')]));
    expect((await compactTranscript({ transcript: small, settings: SETTINGS, force: true })).reason).toBe(
      'nothing to compact',
    );
  });

  it('returns ok:false with the summarizer and its message when summarization fails', async () => {
    const failing: Summarizer = {
      id: 'broken',
      summarize: async () => {
        throw new Error('HTTP 500 from server');
      },
      complete: async () => {
        throw new Error('unused');
      },
    };
    const transcript = transcriptOf(session());
    const out = await compactTranscript({ transcript, summarizer: failing, settings: SETTINGS, force: true });
    expect(out).toEqual({
      ok: false,
      compacted: false,
      reason: 'summarization failed (broken summarizer): HTTP 500 from server',
    });
    expect(transcript.activePath().some((e) => e.type === 'compaction')).toBe(false);
  });

  it('an already aborted signal rejects with its reason and appends nothing', async () => {
    const transcript = transcriptOf(session());
    const controller = new AbortController();
    controller.abort(new Error('timeout'));
    await expect(
      compactTranscript({ transcript, settings: SETTINGS, force: true, signal: controller.signal }),
    ).rejects.toThrow('timeout');
    expect(transcript.activePath().some((e) => e.type === 'compaction')).toBe(false);
  });

  it('keeps the previous summary when only a turn prefix is new', async () => {
    const entries = branch([
      user(`q ${t(10)}`), // e1
      {
        type: 'compaction',
        summary: 'PREVIOUS',
        firstKeptEntryId: 'e3',
        tokensBefore: 100,
        details: { readFiles: [], modifiedFiles: [] },
      }, // e2
      user(`long turn ${t(10)}`), // e3
      assistantCall('c1', 'read', { path: 'z.ts' }), // e4
      toolResult('c1', 'read', t(100)), // e5
      assistantText(`end ${t(30)}`), // e6
    ]);
    // The path's boundary is e2 with firstKept e3, so the range starts at e3; e3's turn is split at e6.
    const { summarizer, requests } = recordingSummarizer({ 'turn-prefix': 'P' });
    const out = await compactTranscript({
      transcript: transcriptOf(entries),
      summarizer,
      settings: { ...SETTINGS, keepRecentTokens: 20 },
      force: true,
    });
    expect(requests.map((r) => r.kind)).toEqual(['turn-prefix']);
    expect(out.result!.summary).toBe(`PREVIOUS${TURN_CONTEXT_PREFIX}P\n\n<read-files>\nz.ts\n</read-files>`);
    expect(NO_PRIOR_HISTORY).toBe('No prior history.');
  });
});

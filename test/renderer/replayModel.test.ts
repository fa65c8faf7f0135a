import { describe, expect, it } from 'vitest';
import type { ListedPlugin } from '../../src/bridge';
import { buildBudgetSeries, turnMarker } from '../../renderer/src/model/budgetSeries';
import { describeWhere, groupFindings } from '../../renderer/src/model/doctorGroups';
import { consentRequests, laneChoices, parseExtraSpecs, pluginLane } from '../../renderer/src/model/laneChoices';
import { messagePreview, messageText } from '../../renderer/src/model/messageText';
import { lanesOfSession } from '../../renderer/src/model/recordingLanes';
import { buildSessionRows, pickDemoSession, type ListedSession } from '../../renderer/src/model/sessionRows';
import { rowHasEvent } from '../../renderer/src/model/timelineFilter';
import { buildTimelineRows } from '../../renderer/src/model/timelineRows';
import { buildTurnDetail } from '../../renderer/src/model/turnDetail';
import { scrollToReveal, visibleRange } from '../../renderer/src/model/windowRange';
import { makeRecording } from './recordingFixture';

describe('messageText', () => {
  it('reads text, thinking, tool calls, tool results and summaries', () => {
    const recording = makeRecording();
    expect(messageText(recording.messages.a2!.message)).toBe('[thinking] Run vitest.\n→ exec({"command":"npm test"})');
    expect(messageText(recording.messages.t2!.message)).toBe('exec: PASS 12 tests\nFAIL 1 test: login redirects');
    expect(messageText(recording.messages.s1!.message)).toBe('## Goal\nFix the login bug.');
    expect(messageText({ role: 'user', content: [{ type: 'image', mimeType: 'image/png', data: 'AAA' }] })).toBe(
      '[image image/png]',
    );
  });

  it('previews on one line and cuts long text with an ellipsis', () => {
    expect(messagePreview('a\n\n  b   c')).toBe('a b c');
    expect(messagePreview('x'.repeat(20), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});

describe('buildBudgetSeries', () => {
  const recording = makeRecording();
  const lanes = lanesOfSession(recording, 'sess-1');

  it('gives each turn the lanes’ assembled tokens and one shared budget line with the tokenBudget values', () => {
    const series = buildBudgetSeries(recording, lanes, 'estimate');
    expect(series.sharedBudget).toBe(true);
    expect(series.points.map((p) => p.budget)).toEqual([11_946, 11_935, 11_937]);
    expect(series.points.map((p) => [p.tokens0, p.tokens1])).toEqual([
      [0, 0],
      [30, 30],
      [466, 42],
    ]);
    expect(series.maxBudget).toBe(11_946);
    expect(series.reserveBand).toEqual({ contextWindow: 32_000, promptBudget: 12_000 });
  });

  it('switches to tiktoken counts', () => {
    const series = buildBudgetSeries(recording, lanes, 'tiktoken');
    expect(series.points.map((p) => p.tokens1)).toEqual([0, 26, 39]);
  });

  it('marks compactions and quarantines (quarantine wins on the same turn)', () => {
    const series = buildBudgetSeries(recording, lanes, 'estimate');
    expect(series.points.map((p) => [p.mark0, p.mark1])).toEqual([
      [null, null],
      [null, null],
      ['compaction', 'quarantine'],
    ]);
    expect([series.compactions, series.quarantines]).toEqual([1, 1]);
    expect(turnMarker(recording.turns.legacy![0]!)).toBeNull();
  });

  it('marks a quarantine once, on the turn it starts, however many turns the fallback serves after it', () => {
    const long = makeRecording();
    const lane = long.turns['recent-window']!;
    const quarantined = lane[2]!;
    // the lane stays on the fallback: later turns are quarantined without a quarantine event of their own
    for (let i = 0; i < 5; i++) {
      const later = structuredClone(quarantined);
      later.events = later.events.filter((e) => e.type !== 'quarantine');
      lane.push(later);
      long.turns.legacy!.push(structuredClone(long.turns.legacy![2]!));
    }
    const series = buildBudgetSeries(long, lanesOfSession(long, 'sess-1'), 'estimate');
    expect(series.marks.filter((m) => m.kind === 'quarantine').map((m) => m.turn)).toEqual([2]);
    expect(series.markTurns.quarantine).toBe(1);
    // the timeline agrees: the "quarantine" filter finds that turn only, the later turns say which engine served
    const rows = buildTimelineRows(long, lanesOfSession(long, 'sess-1'));
    expect(rows.filter((row) => rowHasEvent(row, 'quarantine')).map((row) => row.turn)).toEqual([2]);
    const later = rows.slice(3).map((row) => row.cells[1]!.badges.find((b) => b.kind === 'fallback'));
    expect(later.map((b) => b?.text)).toEqual(Array(5).fill(`on ${quarantined.engine.engineId}`));
    expect(later[0]!.title).toBe(
      `${quarantined.engine.requestedId} is quarantined; ${quarantined.engine.engineId} served this turn`,
    );
  });

  it('draws one budget line per lane when the lanes were given different budgets', () => {
    const other = makeRecording();
    other.turns['recent-window']![1]!.budget.tokenBudget = 5_000;
    const series = buildBudgetSeries(other, lanesOfSession(other, 'sess-1'), 'estimate');
    expect(series.sharedBudget).toBe(false);
    expect([series.points[1]!.budget0, series.points[1]!.budget1]).toEqual([11_935, 5_000]);
  });
});

describe('buildTimelineRows', () => {
  const recording = makeRecording();
  const rows = buildTimelineRows(recording, lanesOfSession(recording, 'sess-1'));

  it('has one row per turn with each lane’s tokens, budget and kept/summarized/dropped counts', () => {
    expect(rows.map((r) => r.turn)).toEqual([0, 1, 2]);
    expect(rows[2]!.prompt).toBe('Why does it fail?');
    expect(rows[2]!.cells.map((c) => c && [c.tokens, c.budget, c.kept, c.summarized, c.dropped])).toEqual([
      [466, 11_937, 5, 0, 0],
      [42, 11_937, 2, 2, 1],
    ]);
  });

  it('badges status, quarantine, compaction, errors and warnings (src/view turnProblems) with their details', () => {
    const cell = rows[2]!.cells[1]!;
    expect(cell.badges.map((b) => [b.kind, b.text, b.tone])).toEqual([
      ['status', 'prompt error', 'bad'],
      ['quarantine', 'quarantine', 'bad'],
      ['compaction', 'compaction', 'warn'],
      ['error', '1 error', 'bad'],
    ]);
    expect(cell.problems).toEqual({ error: true, warning: false, finding: true });
    expect(cell.badges[1]!.title).toBe('recent-window quarantined in assemble: boom');
    expect(cell.badges[2]!.title).toBe('overflow compaction by recent-window: not compacted (nothing to compact)');
    expect(rows[2]!.cells[0]!.badges.map((b) => [b.kind, b.title])).toEqual([
      ['compaction', 'auto compaction by built-in: 900 → 300 tokens'],
    ]);
    // a warning finding and a warning event: two warnings
    expect(rows[1]!.cells[1]!.badges.map((b) => b.text)).toEqual(['2 warnings']);
    expect(rows[1]!.cells[1]!.badges[0]!.title).toBe(
      'estimate-drift: estimatedTokens 50 is far from 38\ncontext engine assemble returned no estimate',
    );
  });

  it('flags the turns where the lanes assembled something different, and says how', () => {
    expect(rows.map((r) => r.differs)).toEqual([false, false, true]);
    expect(rows[2]!.difference).toBe(
      'recent-window left out 3 messages that legacy sent; summarized 2; sent 2 that legacy did not; 1 message sent differently; a different system prompt addition',
    );
  });

  it('does not flag a turn where the lanes sent the same messages with different token totals', () => {
    const other = makeRecording();
    other.turns['recent-window']![1]!.totals.estTokens += 1000;
    other.turns['recent-window']![1]!.budget.tokenBudget = 5_000;
    const otherRows = buildTimelineRows(other, lanesOfSession(other, 'sess-1'));
    expect(otherRows[1]!.cells.map((c) => c!.tokens)).toEqual([30, 1030]);
    expect(otherRows[1]!.differs).toBe(false);
  });

  /** the recording as a streaming replay shows it after `count` turns of each lane (the same record objects) */
  const firstTurns = (full: typeof recording, count: number) => ({
    ...full,
    turns: Object.fromEntries(Object.entries(full.turns).map(([lane, records]) => [lane, records.slice(0, count)])),
  });

  it('keeps the rows of the turns it has when a streaming replay grows, building only the new turns', () => {
    const full = makeRecording();
    const lanes = lanesOfSession(full, 'sess-1');
    const before = buildTimelineRows(firstTurns(full, 2), lanes);
    const after = buildTimelineRows(full, lanes);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).toBe(before[1]);
    expect(after[2]!.turn).toBe(2);
    // and what it keeps is what a fresh build gives
    expect(after).toEqual(buildTimelineRows(makeRecording(), lanes));
  });

  it('builds a row again when what it was built from changes: the measure, the lanes, its records or those before', () => {
    const full = makeRecording();
    const lanes = lanesOfSession(full, 'sess-1');
    const rows = buildTimelineRows(full, lanes);
    // a new record at turn 2 of a lane: its row and the next (whose badges compare with it) are built again
    const replaced = { ...full, turns: { ...full.turns } };
    replaced.turns['recent-window'] = full.turns['recent-window']!.map((record, turn) =>
      turn === 1 ? { ...record } : record,
    );
    const again = buildTimelineRows(replaced, lanes);
    expect(again[0]).toBe(rows[0]);
    expect(again[1]).not.toBe(rows[1]);
    expect(again[2]).not.toBe(rows[2]);
    // (one row is kept per turn, the one built last: each check below builds the rows it compares with first)
    const measured = buildTimelineRows(full, lanes);
    expect(buildTimelineRows(full, lanes, 'tiktoken')[0]).not.toBe(measured[0]);
    const twoLanes = buildTimelineRows(full, lanes);
    expect(buildTimelineRows(full, lanes.slice(0, 1))[0]).not.toBe(twoLanes[0]);
    const relabelled = {
      ...full,
      lanes: full.lanes.map((lane) => (lane.id === 'recent-window' ? { ...lane, label: 'other label' } : lane)),
    };
    expect(buildTimelineRows(relabelled, lanes)[2]!.difference).toContain('other label left out');
  });
});

describe('buildTurnDetail', () => {
  const recording = makeRecording();

  it('lists the assembled messages in order with provenance, counts and links', () => {
    const detail = buildTurnDetail(recording, 'recent-window', 2)!;
    expect(detail.assembled.map((r) => [r.key, r.role, r.provenance, r.estTokens])).toEqual([
      ['s1', 'compactionSummary', 'summary', 12],
      ['u2', 'user', 'raw', 6],
      ['h:mod', 'toolResult', 'modified', 15],
      ['h:syn', 'custom', 'synthetic', 9],
    ]);
    expect(detail.assembled[0]!.coversCount).toBe(2);
    expect(detail.assembled[2]!.sourceKey).toBe('t2');
  });

  it('expands the omitted ranges into the left-out transcript messages', () => {
    const detail = buildTurnDetail(recording, 'recent-window', 2)!;
    expect(detail.summarized.map((r) => r.key)).toEqual(['u1', 'a1']);
    expect(detail.dropped.map((r) => r.key)).toEqual(['a2']);
    expect(detail.findings.map((f) => f.code)).toEqual(['quarantined']);
    expect(detail.newMessages.map((r) => r.key)).toEqual(['u3', 'a3']);
  });

  it('is null for a lane or turn the recording does not have', () => {
    expect(buildTurnDetail(recording, 'nope', 0)).toBeNull();
    expect(buildTurnDetail(recording, 'legacy', 9)).toBeNull();
  });
});

describe('windowing', () => {
  it('renders the rows in view plus an overscan, with padding for the rest', () => {
    expect(visibleRange(0, 360, 36, 1000, 5)).toEqual({ start: 0, end: 15, padTop: 0, padBottom: 985 * 36 });
    expect(visibleRange(3600, 360, 36, 1000, 5)).toEqual({ start: 95, end: 115, padTop: 95 * 36, padBottom: 885 * 36 });
    expect(visibleRange(0, 360, 36, 0)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it('scrolls just enough to reveal a row below or above the view, not at all when it shows', () => {
    expect(scrollToReveal(20, 36, 0, 360, 0)).toBe(21 * 36 - 360);
    expect(scrollToReveal(2, 36, 300, 360, 0)).toBe(72);
    expect(scrollToReveal(10, 36, 300, 360, 0)).toBe(300);
    expect(scrollToReveal(9, 36, 0, 360, 58)).toBe(10 * 36 - 302);
  });
});

function plugin(id: string, patch: Partial<ListedPlugin> = {}): ListedPlugin {
  return {
    id,
    kind: ['context-engine'],
    path: `/plugins/${id}`,
    realPath: `/plugins/${id}`,
    origin: 'bundled',
    enabled: true,
    loadable: true,
    entries: ['./index.js'],
    errors: [],
    configErrors: [],
    warnings: [],
    configSchema: null,
    consent: { state: 'missing', message: 'not executed', hash: 'abc' },
    shadowed: [],
    ...patch,
  };
}

describe('lane choices and consent', () => {
  it('offers legacy and every context-engine plugin by folder, and marks invalid plugins unavailable', () => {
    const choices = laneChoices([
      plugin('recent-window'),
      plugin('memory-only', { kind: ['memory'] }),
      plugin('broken', { errors: [{ code: 'manifest-invalid', message: '/configSchema: is required' }] }),
    ]);
    expect(choices.map((c) => [c.key, c.lane, c.label, c.unavailable])).toEqual([
      ['legacy', { kind: 'legacy' }, 'legacy', null],
      [
        'plugin:/plugins/recent-window',
        { kind: 'plugin', plugin: '/plugins/recent-window' },
        'plugin:recent-window',
        null,
      ],
      [
        'plugin:/plugins/broken',
        { kind: 'plugin', plugin: '/plugins/broken' },
        'plugin:broken',
        '1 problem: /configSchema: is required',
      ],
    ]);
  });

  it('sends a plugin lane by its folder as it is (the runtime escapes it), labelled when the folder is not the id', () => {
    expect(pluginLane({ id: 'x', path: '/a&b/x' })).toEqual({ kind: 'plugin', plugin: '/a&b/x' });
    expect(pluginLane({ id: 'rw', path: '/plugins/recent-window-1.2' }, 'strict')).toEqual({
      kind: 'plugin',
      plugin: '/plugins/recent-window-1.2',
      engineId: 'strict',
      label: 'rw',
    });
  });

  it('asks consent for selected plugin lanes without a current grant, and for typed plugin specs', () => {
    const choices = laneChoices([
      plugin('a', { consent: { state: 'granted', message: 'approved', hash: 'h' } }),
      plugin('b', { consent: { state: 'stale-hash', message: 'changed', hash: 'h' } }),
      plugin('c'),
    ]);
    const selected = ['legacy', 'plugin:/plugins/a', 'plugin:/plugins/b'];
    expect(consentRequests(selected, choices, parseExtraSpecs('  legacy?window=64000   plugin:/x '))).toEqual([
      { path: '/plugins/b', label: 'plugin:b', approvable: true, stale: true },
      { path: 'plugin:/x', label: 'plugin:/x', approvable: false, stale: false },
    ]);
  });
});

describe('session rows', () => {
  const session = (sessionId: string, patch: Partial<ListedSession> = {}): ListedSession => ({
    sessionId,
    file: `/s/${sessionId}.jsonl`,
    agentId: 'main',
    isSubagent: false,
    archived: false,
    size: 100,
    mtimeMs: 1,
    childSessionIds: [],
    ...patch,
  });

  it('puts subagent children right after their parent and says how they are linked', () => {
    const rows = buildSessionRows([
      session('child-1', { key: 'agent:main:subagent:leak-audit', isSubagent: true, parentSessionId: 'parent' }),
      session('other', { key: 'agent:main:demo-short' }),
      session('parent', { key: 'agent:main:main', childSessionIds: ['child-1'] }),
    ]);
    expect(rows.map((r) => [r.title, r.depth, r.parentLabel, r.childrenLabel])).toEqual([
      ['agent:main:demo-short', 0, null, null],
      ['agent:main:main', 0, null, '1 subagent: leak-audit'],
      ['agent:main:subagent:leak-audit', 1, 'subagent of agent:main:main', null],
    ]);
  });

  it('preselects the demo session with subagents, else the first top-level session', () => {
    expect(
      pickDemoSession([session('a', { isSubagent: true }), session('b'), session('c', { key: 'agent:main:main' })])
        ?.sessionId,
    ).toBe('c');
    expect(pickDemoSession([session('a', { isSubagent: true }), session('b')])?.sessionId).toBe('b');
    expect(pickDemoSession([])).toBeNull();
  });
});

describe('doctor findings', () => {
  it('groups by severity in the order errors, warnings, info and leaves out empty groups', () => {
    const f = (severity: 'error' | 'warn' | 'info', code: string) => ({
      severity,
      code,
      where: {},
      message: code,
      fix: 'fix',
    });
    const groups = groupFindings([f('info', 'i1'), f('error', 'e1'), f('info', 'i2'), f('error', 'e2')]);
    expect(groups.map((g) => [g.title, g.findings.map((x) => x.code)])).toEqual([
      ['Errors', ['e1', 'e2']],
      ['Info', ['i1', 'i2']],
    ]);
  });

  it('says where a finding is', () => {
    expect(describeWhere({ pluginId: 'p', engineId: 'e', operation: 'assemble', file: '/x/index.js' })).toBe(
      'plugin p · engine e · assemble · /x/index.js',
    );
  });
});

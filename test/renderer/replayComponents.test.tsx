import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DoctorReportInfo, ListedPlugin } from '../../src/bridge';
import { BudgetChart } from '../../renderer/src/components/BudgetChart';
import { groupMarks, markCounts } from '../../renderer/src/model/chartMarkers';
import { ConsentDialog } from '../../renderer/src/components/ConsentDialog';
import { DoctorReportView } from '../../renderer/src/components/DoctorReportView';
import { PluginList } from '../../renderer/src/components/PluginList';
import { ProgressBar } from '../../renderer/src/components/ProgressBar';
import { TimelineTable, TIMELINE_ROW_HEIGHT } from '../../renderer/src/components/TimelineTable';
import { TurnView } from '../../renderer/src/components/TurnView';
import { buildBudgetSeries } from '../../renderer/src/model/budgetSeries';
import { lanesOfSession } from '../../renderer/src/model/recordingLanes';
import { buildTimelineRows, type TimelineRow } from '../../renderer/src/model/timelineRows';
import { buildTurnDetail } from '../../renderer/src/model/turnDetail';
import { makeRecording } from './recordingFixture';

const recording = makeRecording();
const lanes = lanesOfSession(recording, 'sess-1');
const timelineLanes = [
  { id: 'legacy', label: 'legacy', color: '#4c6ef5' },
  { id: 'recent-window', label: 'recent-window', color: '#e8590c' },
];

describe('TimelineTable', () => {
  it('shows one row per turn with each lane’s tokens / budget, kept·summarized·dropped and event badges', () => {
    render(
      <TimelineTable
        lanes={timelineLanes}
        rows={buildTimelineRows(recording, lanes)}
        selectedTurn={0}
        onSelectTurn={() => {}}
      />,
    );
    const rows = screen.getAllByTestId('timeline-row');
    expect(rows.map((row) => row.getAttribute('data-turn'))).toEqual(['0', '1', '2']);
    const last = rows[2]!;
    expect(
      within(last)
        .getAllByTestId('cell-tokens')
        .map((c) => c.textContent),
    ).toEqual(['466 / 11,937', '42 / 11,937']);
    expect(
      within(last)
        .getAllByTestId('cell-counts')
        .map((c) => c.textContent),
    ).toEqual(['5 · 0 · 0', '2 · 2 · 1']);
    const [legacyEvents, pluginEvents] = within(last).getAllByTestId('cell-events');
    expect(legacyEvents!.textContent).toBe('compaction');
    // every event's kind, the ones behind +N too
    expect(pluginEvents!.dataset.events).toBe('status quarantine compaction error');
    // a narrow column: the first event and +N, every event listed on hover
    expect(pluginEvents!.textContent).toBe('prompt error+3');
    expect(within(pluginEvents!).getByTestId('badge-more').getAttribute('title')).toBe(
      [
        'quarantine: recent-window quarantined in assemble: boom',
        'compaction: overflow compaction by recent-window: not compacted (nothing to compact)',
        '1 error: quarantined: engine "recent-window" was quarantined in assemble: boom',
      ].join('\n'),
    );
    expect(
      pluginEvents!
        .getAttribute('title')!
        .split('\n')
        .map((line) => line.split(':')[0]),
    ).toEqual(['prompt error', 'quarantine', 'compaction', '1 error']);
  });

  it('marks the selected turn and reports clicks on a row', () => {
    const onSelect = vi.fn();
    render(
      <TimelineTable
        lanes={timelineLanes}
        rows={buildTimelineRows(recording, lanes)}
        selectedTurn={1}
        onSelectTurn={onSelect}
      />,
    );
    const rows = screen.getAllByTestId('timeline-row');
    expect(rows.map((row) => row.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false']);
    fireEvent.click(rows[2]!);
    expect(onSelect).toHaveBeenCalledWith(2);
  });

  it('renders only the rows in view of a long timeline and pads the rest', () => {
    const template = buildTimelineRows(recording, lanes)[1]!;
    const many: TimelineRow[] = Array.from({ length: 500 }, (_, turn) => ({ ...template, turn }));
    render(
      <TimelineTable
        lanes={timelineLanes}
        rows={many}
        selectedTurn={0}
        onSelectTurn={() => {}}
        height={58 + 10 * TIMELINE_ROW_HEIGHT}
      />,
    );
    const rendered = screen.getAllByTestId('timeline-row');
    expect(rendered.length).toBe(16); // 10 in view + 6 overscan below
    expect(rendered.at(-1)!.getAttribute('data-turn')).toBe('15');
  });
});

describe('TurnView', () => {
  const detail = buildTurnDetail(recording, 'recent-window', 2)!;

  function renderTurn(expanded: Record<string, true> = {}, onToggle = vi.fn(), onSelectLane = vi.fn()) {
    render(
      <TurnView
        detail={detail}
        turnCount={3}
        prompt="Why does it fail?"
        lanes={timelineLanes}
        onSelectLane={onSelectLane}
        expanded={expanded}
        onToggle={onToggle}
      />,
    );
    return { onToggle, onSelectLane };
  }

  it('lists the assembled messages in order with role, provenance badge and both token counts', () => {
    renderTurn();
    const table = screen.getByTestId('messages-assembled');
    const rows = within(table).getAllByTestId('message-row');
    expect(rows.map((row) => row.getAttribute('data-key'))).toEqual(['s1', 'u2', 'h:mod', 'h:syn']);
    expect(
      within(table)
        .getAllByTestId('provenance-badge')
        .map((b) => b.textContent),
    ).toEqual(['summary', 'raw', 'modified', 'synthetic']);
    expect(Array.from(rows[2]!.querySelectorAll('td')).map((td) => td.textContent)).toEqual([
      '3',
      'toolResult',
      'modified',
      '15',
      '14',
      'exec: FAIL 1 test: login redirects [truncated]from t2',
    ]);
    expect(rows[0]!.textContent).toContain('covers 2 messages');
  });

  it('shows the budget, the status and error, the engine that served the turn, and the quarantine', () => {
    renderTurn();
    expect(screen.getByTestId('turn-token-budget').textContent).toBe('11,937');
    expect(screen.getByTestId('turn-assembled-tokens').textContent).toBe('42');
    expect(screen.getByTestId('turn-status').textContent).toBe('prompt error');
    expect(screen.getByText('Context overflow: prompt too large for the model (precheck).')).toBeTruthy();
    expect(screen.getByText('Engine').nextSibling?.textContent).toBe(
      'legacy (selected recent-window)quarantined · built-in compaction',
    );
    const events = screen.getByTestId('turn-events');
    expect(events.textContent).toContain('overflow compaction by recent-window: not compacted (nothing to compact)');
    expect(events.textContent).toContain(
      'quarantine engine recent-window (plugin:recent-window) failed in assemble: boom. The lane continues on legacy.',
    );
  });

  it('says which path the turn took: the legacy fallback with its reason, or commitTurn and its outcome', () => {
    const withPath = makeRecording();
    const turn = withPath.turns['recent-window']![2]!;
    const show = () => {
      const view = render(
        <TurnView
          detail={buildTurnDetail(withPath, 'recent-window', 2)!}
          turnCount={3}
          prompt="Why does it fail?"
          lanes={timelineLanes}
          onSelectLane={vi.fn()}
          expanded={{}}
          onToggle={vi.fn()}
        />,
      );
      const text = screen.getByTestId('turn-path').textContent;
      view.unmount();
      return text;
    };
    turn.turnPath = {
      engine: 'legacy-fallback',
      degradedReason: 'current-turn transcript fencing is not declared',
      finalize: 'none',
    };
    expect(show()).toBe('ran on legacy · no finalize call · current-turn transcript fencing is not declared');
    turn.turnPath = { engine: 'configured', finalize: 'commitTurn', commit: 'committed', advancementKey: 'k' };
    expect(show()).toBe('configured engine · commitTurn' + 'committed');
    delete turn.turnPath;
    render(
      <TurnView
        detail={buildTurnDetail(withPath, 'recent-window', 2)!}
        turnCount={3}
        prompt="x"
        lanes={timelineLanes}
        onSelectLane={vi.fn()}
        expanded={{}}
        onToggle={vi.fn()}
      />,
    );
    expect(screen.queryByTestId('turn-path')).toBeNull();
  });

  it('shows what was left out (summarized and dropped) and the system prompt addition', () => {
    renderTurn();
    const leftOut = screen.getByTestId('left-out-section');
    expect(within(leftOut).getByRole('heading').textContent).toBe('Left out of the context3');
    // the lists render only once opened
    expect(within(leftOut).queryByRole('table')).toBeNull();
    for (const summary of Array.from(leftOut.querySelectorAll('summary'))) {
      const details = summary.parentElement as HTMLDetailsElement;
      details.open = true;
      fireEvent(details, new Event('toggle'));
    }
    expect(
      within(within(leftOut).getByRole('table', { name: 'Summarized messages' }))
        .getAllByTestId('message-row')
        .map((r) => r.getAttribute('data-key')),
    ).toEqual(['u1', 'a1']);
    expect(
      within(within(leftOut).getByRole('table', { name: 'Dropped messages' }))
        .getAllByTestId('message-row')
        .map((r) => r.getAttribute('data-key')),
    ).toEqual(['a2']);
    expect(
      screen.getByText('## Memory recall with memory_search', { normalizer: (s) => s.replace(/\s+/g, ' ') }),
    ).toBeTruthy();
  });

  it('expands a message on click (the view owns the expanded set) and shows its full text when expanded', () => {
    const { onToggle } = renderTurn({ 'assembled:0': true });
    const rows = within(screen.getByTestId('messages-assembled')).getAllByTestId('message-row');
    expect(within(rows[0]!).getByTestId('message-full').textContent).toBe('## Goal\nFix the login bug.');
    expect(within(rows[1]!).queryByTestId('message-full')).toBeNull();
    fireEvent.click(within(rows[1]!).getByRole('button'));
    expect(onToggle).toHaveBeenCalledWith('assembled:1');
  });

  it('lists engine calls with duration and outcome, and switches lanes through the tabs', () => {
    const { onSelectLane } = renderTurn();
    const call = screen.getByTestId('engine-call');
    expect(Array.from(call.querySelectorAll('td')).map((td) => td.textContent)).toEqual([
      'assemble',
      '1',
      '+12 ms',
      '1.3 ms',
      'ok',
      '',
    ]);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((t) => [t.textContent, t.getAttribute('aria-selected')])).toEqual([
      ['legacy', 'false'],
      ['recent-window', 'true'],
    ]);
    fireEvent.click(tabs[0]!);
    expect(onSelectLane).toHaveBeenCalledWith('legacy');
  });
});

describe('BudgetChart', () => {
  it('draws a line per lane and the budget line, markers per turn, the bands and a caption with both reserves', async () => {
    const series = buildBudgetSeries(recording, lanes, 'estimate');
    const { container } = render(
      <BudgetChart series={series} measure="estimate" selectedTurn={0} onSelectTurn={() => {}} />,
    );
    // the plot is loaded on demand
    await waitFor(() => expect(container.querySelectorAll('.recharts-line').length).toBe(3), { timeout: 15_000 });
    expect(container.querySelectorAll('[data-marker="compaction"]').length).toBe(series.markTurns.compaction);
    expect(container.querySelectorAll('[data-marker="quarantine"]').length).toBe(series.markTurns.quarantine);
    const first = recording.turns[lanes[0]!.id]![0]!;
    expect(screen.getByTestId('budget-caption').textContent).toBe(
      `assembled messages, OpenClaw estimate · token budget up to 11,946 · window 32,000 · prompt budget 12,000 (reserve 20,000 configured, ${first.precheck.effectiveReserveTokens.toLocaleString('en-US')} effective)`,
    );
    expect(screen.getByTestId('legend-compactions').textContent).toBe('◆ compaction (1 turn)');
    expect(screen.getByTestId('legend-quarantines').textContent).toBe('✕ quarantine (1 turn)');
    expect(screen.getByTestId('budget-chart-cursor').getAttribute('data-turn')).toBe('0');
  });

  it('plots the precheck estimate without the token budget: the line the compaction threshold is read against', async () => {
    const series = buildBudgetSeries(recording, lanes, 'precheck');
    const first = recording.turns[lanes[0]!.id]![0]!;
    // the figure OpenClaw compared with the threshold, not the assembled messages
    expect(series.points[0]![series.lanes[0]!.tokensKey]).toBe(first.precheck.estimatedTokens);
    expect(first.precheck.estimatedTokens).not.toBe(first.totals.estTokens);
    expect(series.budgetLine).toBe(false);
    expect(series.points.every((p) => p.budget === null)).toBe(true);
    const { container } = render(
      <BudgetChart series={series} measure="precheck" selectedTurn={0} onSelectTurn={() => {}} />,
    );
    await waitFor(
      () => expect(container.querySelectorAll('.recharts-line:not(.budget-chart__before-compaction)').length).toBe(2),
      { timeout: 15_000 },
    );
    expect(screen.getByTestId('budget-caption').textContent).toMatch(
      /^precheck estimate of the prompt \(what the compaction threshold is compared with\) · window 32,000 ·/,
    );
    expect(screen.queryByText('token budget')).toBeNull();
  });

  it('draws a compaction turn from the estimate it was decided on down to the one after it (its cause line)', async () => {
    const compacting = makeRecording();
    const event = compacting.turns.legacy![2]!.events[0]!;
    if (event.type !== 'compaction') throw new Error('the fixture compacts on turn 3');
    event.cause = { measure: 'precheck', attempt: 0, tokens: 13_000, limit: 12_000, source: 'assembled' };
    const series = buildBudgetSeries(compacting, lanesOfSession(compacting, 'sess-1'), 'precheck');
    const { container } = render(
      <BudgetChart series={series} measure="precheck" selectedTurn={0} onSelectTurn={() => {}} />,
    );
    await waitFor(() => expect(container.querySelector('.budget-chart__before-compaction-dot')).not.toBeNull(), {
      timeout: 15_000,
    });
    const dots = [...container.querySelectorAll('.budget-chart__before-compaction-dot')];
    expect(
      dots.map((d) => [d.getAttribute('data-lane'), d.getAttribute('data-turn'), d.getAttribute('data-tokens')]),
    ).toEqual([['legacy', '2', '13000']]);
    // the drop: from the dot down to the estimate after the compaction (100), above the threshold line (12,000)
    const drop = container.querySelector('.budget-chart__drop line')!;
    const threshold = Number(container.querySelector('.budget-chart__threshold line')!.getAttribute('y1'));
    expect(Number(drop.getAttribute('y1'))).toBeCloseTo(Number(dots[0]!.getAttribute('cy')), 5);
    expect(Number(drop.getAttribute('y1'))).toBeLessThan(threshold);
    expect(Number(drop.getAttribute('y2'))).toBeGreaterThan(threshold);
  });

  it('dashes the later lane apart, so lanes with the same figures show both colours', async () => {
    const series = buildBudgetSeries(recording, lanes, 'precheck');
    const { container } = render(
      <BudgetChart series={series} measure="precheck" selectedTurn={0} onSelectTurn={() => {}} />,
    );
    await waitFor(
      () => expect(container.querySelectorAll('path.recharts-line-curve[name]').length).toBeGreaterThan(1),
      {
        timeout: 15_000,
      },
    );
    const curves = series.lanes.map((lane) =>
      container.querySelector(`path.recharts-line-curve[name="${lane.label}"]`)!,
    );
    expect(curves.map((c) => [c.getAttribute('stroke-dasharray'), c.getAttribute('stroke-dashoffset')])).toEqual([
      [null, null],
      ['8 8', '8'],
    ]);
  });

  it('counts a turn once however many lanes compacted on it, and groups dense markers', () => {
    const marks = [0, 1, 2, 3, 500, 999].flatMap((turn) => [{ turn, kind: 'compaction' as const, lanes: 2 }]);
    expect(markCounts(marks)).toEqual({ compaction: 6, quarantine: 0, spawn: 0 });
    const groups = groupMarks(marks, 0, 999, 10);
    expect(groups.map((g) => [g.firstTurn, g.lastTurn, g.turns])).toEqual([
      [0, 3, 4],
      [500, 500, 1],
      [999, 999, 1],
    ]);
    expect(groupMarks(marks, 0, 9, 100).map((g) => g.turns)).toEqual([1, 1, 1, 1]);
  });
});

describe('ConsentDialog', () => {
  it('names each plugin folder and offers approve / run once / cancel', () => {
    const onApprove = vi.fn();
    const onRunOnce = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConsentDialog
        requests={[{ path: '/plugins/recent-window', label: 'plugin:recent-window', approvable: true, stale: true }]}
        busy={false}
        onApprove={onApprove}
        onRunOnce={onRunOnce}
        onCancel={onCancel}
      />,
    );
    const dialog = screen.getByRole('dialog', { name: 'Run plugin code?' });
    expect(within(dialog).getByTestId('consent-request').textContent).toBe(
      'Run plugin code from /plugins/recent-window?It changed since you approved it: review the change first.',
    );
    expect(document.activeElement?.textContent).toBe('Approve and run');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve and run' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Run once' }));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect([onApprove.mock.calls.length, onRunOnce.mock.calls.length, onCancel.mock.calls.length]).toEqual([1, 1, 1]);
  });

  it('offers no permanent approval for a typed plugin spec', () => {
    render(
      <ConsentDialog
        requests={[{ path: 'plugin:/x', label: 'plugin:/x', approvable: false, stale: false }]}
        busy={false}
        onApprove={() => {}}
        onRunOnce={() => {}}
        onCancel={() => {}}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Approve and run' })).toBeNull();
    expect(document.activeElement?.textContent).toBe('Run once');
  });
});

describe('ProgressBar', () => {
  it('reports done of total', () => {
    render(<ProgressBar done={5} total={24} label="Replay" />);
    const bar = screen.getByRole('progressbar', { name: 'Replay' });
    expect([bar.getAttribute('aria-valuenow'), bar.getAttribute('aria-valuemax')]).toEqual(['5', '24']);
    expect(screen.getByText('5 / 24 lane-turns')).toBeTruthy();
  });
});

function listed(id: string, patch: Partial<ListedPlugin> = {}): ListedPlugin {
  return {
    id,
    name: id.toUpperCase(),
    version: '1.0.0',
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
    configSchema: {
      fields: [{ key: 'budgetShare', type: 'number', label: 'Budget share', default: 0.8, advanced: false }],
      additionalProperties: false,
    },
    consent: { state: 'missing', message: 'not executed: no consent', hash: 'abc' },
    shadowed: [],
    ...patch,
  };
}

describe('PluginList', () => {
  it('shows consent state with approve or revoke, and problems with where and fix', () => {
    const onApprove = vi.fn();
    const onRevoke = vi.fn();
    render(
      <PluginList
        plugins={[
          listed('a'),
          listed('b', {
            consent: { state: 'granted', message: 'approved on 2026-03-01', hash: 'h', grantedAt: '2026-03-01' },
          }),
          listed('c', {
            consent: { state: 'stale-hash', message: 'changed', hash: 'h' },
            loadable: false,
            configErrors: [
              {
                code: 'config-invalid',
                message: 'must be <= 1',
                path: '/budgetShare',
                file: '/state/openclaw.json',
                fix: 'use 0.1–1',
              },
            ],
          }),
        ]}
        busyPath={null}
        onApprove={onApprove}
        onRevoke={onRevoke}
      />,
    );
    const cards = screen.getAllByTestId('plugin-card');
    expect(cards.map((c) => within(c).getByTestId('consent-state').textContent)).toEqual([
      'not approved',
      'approved',
      'changed since approval',
    ]);
    fireEvent.click(within(cards[0]!).getByRole('button', { name: 'Approve a' }));
    fireEvent.click(within(cards[1]!).getByRole('button', { name: 'Revoke' }));
    expect(onApprove).toHaveBeenCalledWith('/plugins/a', {});
    expect(onRevoke).toHaveBeenCalledWith('/plugins/b');
    expect(within(cards[2]!).getByRole('button', { name: 'Approve c' }).textContent).toBe('Approve again');
    expect(within(cards[2]!).getByTestId('plugin-problem').textContent).toBe(
      'config-invalid /budgetShare: must be <= 1/state/openclaw.jsonFix: use 0.1–1',
    );
  });
});

describe('PluginList grants', () => {
  it('approves with the child processes / worker threads ticked beside Approve, and shows what a consent grants', () => {
    const onApprove = vi.fn();
    render(
      <PluginList
        plugins={[
          listed('a'),
          listed('b', {
            consent: {
              state: 'granted',
              message: 'approved on 2026-03-01',
              hash: 'h',
              grantedAt: '2026-03-01',
              grants: { childProcess: true },
            },
          }),
        ]}
        busyPath={null}
        onApprove={onApprove}
        onRevoke={vi.fn()}
      />,
    );
    const [a, b] = screen.getAllByTestId('plugin-card');
    fireEvent.click(within(a!).getByRole('checkbox', { name: 'may start processes' }));
    fireEvent.click(within(a!).getByRole('button', { name: 'Approve a' }));
    expect(onApprove).toHaveBeenLastCalledWith('/plugins/a', { childProcess: true });
    fireEvent.click(within(a!).getByRole('checkbox', { name: 'may start worker threads' }));
    fireEvent.click(within(a!).getByRole('button', { name: 'Approve a' }));
    expect(onApprove).toHaveBeenLastCalledWith('/plugins/a', { childProcess: true, worker: true });
    expect(within(b!).queryByRole('checkbox')).toBeNull();
    expect(within(b!).getByText('may start processes')).toBeTruthy();
    expect(within(b!).queryByText('may start worker threads')).toBeNull();
  });
});

describe('DoctorReportView', () => {
  it('shows the totals and the findings grouped errors first, each with where and fix', () => {
    const report: DoctorReportInfo = {
      version: 1,
      ok: false,
      executed: true,
      summary: { plugins: 1, errors: 1, warnings: 0, infos: 1 },
      config: { path: null, contextEngineSlot: null },
      plugins: [
        {
          id: 'x',
          path: '/p/x',
          kind: ['context-engine'],
          origin: 'linked',
          enabled: true,
          status: 'executed',
          statusMessage: 'ok',
          engines: ['x'],
          discoveryEngines: ['x'],
          tools: [],
          commands: [],
          hooks: [],
          errors: [],
        },
      ],
      findings: [
        { severity: 'info', code: 'slot-unverified', where: { pluginId: 'x' }, message: 'slot not set', fix: 'set it' },
        {
          severity: 'error',
          code: 'engine-quarantined',
          where: { pluginId: 'x', engineId: 'x', operation: 'assemble' },
          message: 'assemble threw',
          fix: 'catch it',
        },
      ],
      quarantines: [{ engineId: 'x', operation: 'assemble', reason: 'boom', failedAt: 1 }],
    };
    render(<DoctorReportView report={report} />);
    expect(screen.getByTestId('doctor-summary').textContent).toBe(
      'problems found 1 plugins · 1 errors · 0 warnings · 1 info · plugin code was executed',
    );
    const groups = screen
      .getAllByRole('region')
      .filter((r) => r.getAttribute('data-testid')?.startsWith('doctor-group-'));
    expect(groups.map((g) => g.getAttribute('data-testid'))).toEqual(['doctor-group-error', 'doctor-group-info']);
    expect(groups[0]!.textContent).toBe(
      'Errors 1error engine-quarantined plugin x · engine x · assembleassemble threwFix: catch it',
    );
  });
});

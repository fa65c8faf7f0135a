import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { BatchGetResponse, BatchLaneFiguresRecord } from '../../src/bridge';
import { BatchTable, savedText } from '../../renderer/src/components/BatchTable';
import { batchParams } from '../../renderer/src/store/batchStore';
import type { LaneChoice } from '../../renderer/src/model/laneChoices';
import type { ReplayFormState } from '../../renderer/src/store/replayTypes';

function lane(over: Partial<BatchLaneFiguresRecord> & { laneId: string }): BatchLaneFiguresRecord {
  return {
    label: over.laneId,
    spec: over.laneId,
    baseline: false,
    added: false,
    turns: 6,
    compactions: 1,
    quarantines: 0,
    failedTurns: 0,
    tokens: 1000,
    savedTokens: null,
    savedFraction: null,
    findings: { error: 0, warning: 1, info: 0 },
    ...over,
  };
}

const plugin = lane({ laneId: 'recent-window', tokens: 600, savedTokens: 400, savedFraction: 0.4, compactions: 2 });
const baseline = lane({
  laneId: 'legacy',
  spec: 'legacy',
  baseline: true,
  added: true,
  savedTokens: 0,
  savedFraction: 0,
});

const batch: BatchGetResponse = {
  batchId: 'b1',
  status: 'running',
  stateDir: '/state',
  workers: 2,
  rows: [
    {
      index: 0,
      sessionId: 's0',
      key: 'agent:main:a',
      agentId: 'main',
      storage: 'jsonl',
      file: '/a.jsonl',
      status: 'done',
      turns: 6,
      lanes: [plugin, baseline],
      failing: 0,
    },
    {
      index: 1,
      sessionId: 'broken',
      agentId: 'main',
      storage: 'jsonl',
      file: '/b.jsonl',
      status: 'failed',
      error: 'Session /b.jsonl is not a transcript',
      lanes: [],
      failing: 0,
    },
    {
      index: 2,
      sessionId: 's2',
      key: 'agent:ops:q',
      agentId: 'ops',
      storage: 'sqlite',
      file: '/db.sqlite#agent:ops:q',
      status: 'running',
      lanes: [],
      failing: 0,
    },
  ],
  totals: { sessions: 3, done: 1, failed: 1, turns: 6, lanes: [plugin, baseline], failing: 0 },
  skipped: { subagents: 1, archived: 0 },
  elapsedMs: 4000,
};

describe('BatchTable', () => {
  it('shows a row per session with the lane asked for, saved tokens against legacy, and the total', () => {
    render(<BatchTable batch={batch} opening={null} onOpen={() => {}} onCancel={() => {}} />);
    const rows = screen.getAllByTestId('batch-row');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['done', 'failed', 'running']);
    const done = within(rows[0]!);
    expect(done.getByText('agent:main:a')).toBeTruthy();
    expect(done.getByText('recent-window')).toBeTruthy();
    expect(done.getByTestId('batch-saved').textContent).toBe('400 (40.0%)');
    expect(done.queryByText('legacy')).toBeNull(); // the added baseline only measures
    expect(within(rows[1]!).getByText('Session /b.jsonl is not a transcript')).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    expect(within(rows[2]!).getByText('replaying…')).toBeTruthy();
    const total = screen.getByTestId('batch-total');
    expect(within(total).getByText('1 done · 1 failed')).toBeTruthy();
    expect(screen.getByText(/2 workers · 4 s · 0\.50 sessions\/s/)).toBeTruthy();
    expect(screen.getByText(/1 subagent session\(s\)/)).toBeTruthy();
    expect(screen.getByText('2 / 3 sessions')).toBeTruthy();
  });

  it('opens a finished row and cancels a running batch', () => {
    const onOpen = vi.fn();
    const onCancel = vi.fn();
    render(<BatchTable batch={batch} opening={null} onOpen={onOpen} onCancel={onCancel} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open the recording of agent:main:a' }));
    expect(onOpen).toHaveBeenCalledWith(0);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('says which lane is the baseline when legacy itself was asked for', () => {
    expect(savedText(lane({ laneId: 'legacy', baseline: true }))).toBe('baseline');
    expect(savedText(lane({ laneId: 'x' }))).toBe('—');
    expect(savedText(lane({ laneId: 'x', savedTokens: -12, savedFraction: -0.012 }))).toBe('-12 (-1.2%)');
  });
});

describe('batchParams', () => {
  const form: ReplayFormState = {
    lanes: ['plugin:/p/recent-window'],
    extraSpecs: '',
    window: '16000',
    reserve: '',
    keepRecentTokens: '4000',
    host: 'embedded',
    openclawVersion: '',
    follow: true,
    laneConfigs: {},
  };
  const choice = (consent: 'granted' | 'missing'): LaneChoice => ({
    key: 'plugin:/p/recent-window',
    lane: { kind: 'plugin', plugin: '/p/recent-window' },
    label: 'plugin:recent-window',
    description: '',
    plugin: { id: 'recent-window', path: '/p/recent-window', consent },
    unavailable: null,
  });

  const params = {
    stateDir: '/state',
    lanes: [{ kind: 'plugin', plugin: '/p/recent-window' }],
    window: 16000,
    keepRecentTokens: 4000,
    host: 'embedded',
  };

  it('takes the form lanes and settings for every session of the folder', () => {
    expect(batchParams('/state', form, [choice('granted')])).toEqual({ ok: true, params, consent: [] });
  });

  it('names the plugins that need consent before the batch starts', () => {
    expect(batchParams('/state', form, [choice('missing')])).toEqual({
      ok: true,
      params,
      consent: [{ path: '/p/recent-window', label: 'plugin:recent-window', approvable: true, stale: false }],
    });
    expect(batchParams('/state', { ...form, lanes: [] }, [])).toMatchObject({ ok: false });
  });
});

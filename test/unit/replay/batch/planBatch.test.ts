import { describe, expect, it } from 'vitest';
import type { ListedSession } from '../../../../src/replay';
import { planBatch, planBatchLanes, safeFileStem } from '../../../../src/replay/batch';

function listed(over: Partial<ListedSession> & { sessionId: string }): ListedSession {
  return {
    file: `/state/agents/${over.agentId ?? 'main'}/sessions/${over.sessionId}.jsonl`,
    storage: 'jsonl',
    agentId: 'main',
    isSubagent: false,
    archived: false,
    size: 10,
    mtimeMs: 1000,
    childSessionIds: [],
    ...over,
  };
}

describe('planBatchLanes', () => {
  it('adds a plain legacy baseline only when no lane is plain legacy', () => {
    expect(planBatchLanes(['plugin:recent-window'])).toEqual({
      lanes: ['plugin:recent-window', 'legacy'],
      baselineAdded: true,
    });
    expect(planBatchLanes(['legacy?window=8000'])).toEqual({
      lanes: ['legacy?window=8000', 'legacy'],
      baselineAdded: true,
    });
    expect(planBatchLanes(['legacy', 'plugin:x'])).toEqual({ lanes: ['legacy', 'plugin:x'], baselineAdded: false });
    expect(planBatchLanes([])).toEqual({ lanes: ['legacy'], baselineAdded: false });
    // lanes given as data (the app): plain legacy is the baseline, a legacy lane with options is not
    expect(planBatchLanes([{ kind: 'legacy' }])).toEqual({ lanes: [{ kind: 'legacy' }], baselineAdded: false });
    expect(planBatchLanes([{ kind: 'legacy', window: 8000 }])).toEqual({
      lanes: [{ kind: 'legacy', window: 8000 }, 'legacy'],
      baselineAdded: true,
    });
  });
});

describe('planBatch', () => {
  it('plans top-level sessions oldest first and counts the ones left out', () => {
    const plan = planBatch([
      listed({ sessionId: 'newer', mtimeMs: 3000, key: 'agent:main:b' }),
      listed({ sessionId: 'child', isSubagent: true, parentSessionId: 'older' }),
      listed({ sessionId: 'older', mtimeMs: 2000, key: 'agent:main:a' }),
      listed({ sessionId: 'old-reset', archived: true }),
      listed({
        sessionId: 'db',
        storage: 'sqlite',
        agentId: 'ops',
        file: '/s/agents/ops/agent/openclaw-agent.sqlite#k',
        mtimeMs: 2500,
      }),
    ]);
    expect(plan.jobs.map((j) => j.sessionId)).toEqual(['older', 'db', 'newer']);
    expect(plan.jobs.map((j) => j.index)).toEqual([0, 1, 2]);
    expect(plan.jobs[1]).toMatchObject({
      storage: 'sqlite',
      agentId: 'ops',
      file: '/s/agents/ops/agent/openclaw-agent.sqlite#k',
    });
    expect(plan.skipped).toEqual({ subagents: 1, archived: 1 });
    expect(plan.jobs.every((j) => j.recordingFile === undefined)).toBe(true);
  });

  it('names each Recording from its session id, the agent in front when two agents share an id', () => {
    const plan = planBatch(
      [
        listed({ sessionId: 'same', agentId: 'main', mtimeMs: 1 }),
        listed({ sessionId: 'same', agentId: 'ops', mtimeMs: 2 }),
        listed({ sessionId: '../escape me', mtimeMs: 3 }),
      ],
      { outDir: '/out' },
    );
    expect(plan.jobs.map((j) => j.recordingFile)).toEqual([
      '/out/main-same.recording.json',
      '/out/ops-same.recording.json',
      '/out/__escape_me.recording.json',
    ]);
  });

  it('keeps file names safe and distinct', () => {
    expect(safeFileStem('a/b\\c:d')).toBe('a_b_c_d');
    expect(safeFileStem('..')).toBe('_');
    expect(safeFileStem('')).toBe('session');
    const plan = planBatch([listed({ sessionId: 'a:b', mtimeMs: 1 }), listed({ sessionId: 'a/b', mtimeMs: 2 })], {
      outDir: '/o',
    });
    expect(plan.jobs.map((j) => j.recordingFile)).toEqual(['/o/a_b.recording.json', '/o/a_b-2.recording.json']);
  });
});

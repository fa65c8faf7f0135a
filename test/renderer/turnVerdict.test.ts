import { describe, expect, it } from 'vitest';
import { buildTurnDetail, spawnLinks, turnVerdict } from '../../renderer/src/model/turnDetail';
import type { Finding } from '../../renderer/src/recordingTypes';
import { makeRecording } from './recordingFixture';

function finding(severity: Finding['severity'], turn: number | null = 0): Finding {
  return { code: 'estimate-drift', severity, lane: 'legacy', turn, message: `a ${severity}` };
}

describe('the turn status badge shows the worst of status, quarantine and findings', () => {
  const recording = makeRecording();
  const okTurn = recording.turns.legacy!.find((t) => t.status === 'ok' && !t.engine.quarantined)!;

  it('an ok turn with an error finding is not "ok"; warnings are amber; nothing found is ok', () => {
    expect(turnVerdict(okTurn, null, [finding('warning'), finding('error')])).toMatchObject({
      text: '1 error',
      tone: 'bad',
    });
    expect(turnVerdict(okTurn, null, [finding('warning')])).toMatchObject({ text: '1 warning', tone: 'warn' });
    expect(turnVerdict(okTurn, null, [finding('info')])).toMatchObject({ text: 'ok', tone: 'ok' });
  });

  it('a lane whose engine was quarantined before the first turn says so on every turn, with a banner sentence', () => {
    const laneId = recording.lanes[1]!.id;
    const quarantined = structuredClone(recording);
    for (const turn of quarantined.turns[laneId]!) {
      turn.events = turn.events.filter((e) => e.type !== 'quarantine');
      turn.engine = { ...turn.engine, engineId: 'legacy', quarantined: true };
    }
    quarantined.events.push({
      type: 'quarantine',
      engineId: 'recent-window',
      operation: 'factory',
      reason: 'factory exploded',
      failedAt: 1,
      lane: laneId,
      turn: null,
      seq: 0,
    });
    const detail = buildTurnDetail(quarantined, laneId, 0)!;
    expect(detail.quarantine?.text).toBe(
      'recent-window was quarantined in factory before the first turn: factory exploded. The lane runs on legacy from then on.',
    );
    expect(detail.worst).toMatchObject({ text: 'quarantined → legacy', tone: 'bad' });
    expect(buildTurnDetail(quarantined, 'legacy', 0)!.quarantine).toBeNull();
  });
});

describe('spawn links', () => {
  it('a spawning turn links to the child lane, and the child lane links back to that turn', () => {
    const recording = structuredClone(makeRecording());
    const parent = recording.lanes[0]!;
    const child = {
      ...parent,
      id: `${parent.id}/child1`,
      label: `${parent.label}/child1`,
      sessionId: 'child-session',
      parentLane: parent.id,
      childSessionKey: 'agent:main:subagent:child1',
      spawnedAtTurn: 1,
    };
    recording.lanes.push(child);
    expect(spawnLinks(recording, parent, 1)).toEqual([
      {
        direction: 'child',
        laneId: child.id,
        sessionId: 'child-session',
        turn: 0,
        label: 'agent:main:subagent:child1',
      },
    ]);
    expect(spawnLinks(recording, parent, 0)).toEqual([]);
    expect(spawnLinks(recording, child, 0)).toEqual([
      {
        direction: 'parent',
        laneId: parent.id,
        sessionId: parent.sessionId,
        turn: 1,
        label: `${parent.label}, turn 2`,
      },
    ]);
  });
});

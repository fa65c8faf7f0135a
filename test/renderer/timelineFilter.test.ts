import { describe, expect, it } from 'vitest';
import { filterMessages, filterTimelineRows, messageRoles } from '../../renderer/src/model/timelineFilter';
import { buildTimelineRows } from '../../renderer/src/model/timelineRows';
import { detailMatching, buildTurnDetail, turnJson } from '../../renderer/src/model/turnDetail';
import { makeRecording } from './recordingFixture';

describe('timeline search and filter', () => {
  const recording = makeRecording();
  const lanes = recording.lanes;
  const rows = buildTimelineRows(recording, lanes);

  it('finds the turn a message appeared in by its text, case-insensitively, optionally by role', () => {
    const found = filterTimelineRows(rows, recording, lanes, { text: 'LOGIN BUG', role: '', event: '' });
    expect(found.map((r) => r.turn)).toEqual([0]);
    expect(filterTimelineRows(rows, recording, lanes, { text: 'login bug', role: 'assistant', event: '' })).toEqual([]);
    expect(filterTimelineRows(rows, recording, lanes, { text: 'no such text anywhere', role: '', event: '' })).toEqual(
      [],
    );
    expect(messageRoles(recording)).toContain('user');
  });

  it('keeps only turns with an event of the kind asked for on some lane', () => {
    const compactions = filterTimelineRows(rows, recording, lanes, { text: '', role: '', event: 'compaction' });
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.length).toBeLessThan(rows.length);
    for (const row of compactions)
      expect(row.cells.some((c) => c?.badges.some((b) => b.kind === 'compaction'))).toBe(true);
  });

  it("narrows a turn's message lists to the matches and copies a turn with its messages as JSON", () => {
    const detail = buildTurnDetail(recording, 'legacy', 2)!;
    const word = detail.assembled[0]!.text.split(/\s+/)[0]!;
    const narrowed = detailMatching(detail, word.toUpperCase());
    expect(narrowed.assembled.length).toBeGreaterThan(0);
    expect(narrowed.assembled.every((row) => row.text.toLowerCase().includes(word.toLowerCase()))).toBe(true);
    expect(filterMessages(detail.assembled, '', 'user').every((row) => row.role === 'user')).toBe(true);
    const json = JSON.parse(turnJson(detail)) as { laneId: string; turn: number; messages: Record<string, unknown> };
    expect(json).toMatchObject({ laneId: 'legacy', turn: 2 });
    expect(Object.keys(json.messages)).toEqual(detail.assembled.map((row) => row.key));
  });
});

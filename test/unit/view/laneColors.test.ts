/**
 * Issue 34: one colour per lane everywhere. A real replay of a session with subagents through two lanes: the lanes
 * a streaming replay shows (subagent lanes appended as their spawns are reached) and the finished Recording's (put
 * in family order) give every lane the same colour in the app's budget chart and timeline, a subagent lane the
 * colour of the lane it descends from, and the HTML report draws each lane in the app's colour.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildBudgetSeries } from '../../../renderer/src/model/budgetSeries';
import { lanesNamedForView, lanesOfSession, sessionViewTitle } from '../../../renderer/src/model/recordingLanes';
import { renderBudgetChart, renderHtmlReport, replaySession, type Recording } from '../../../src/replay';
import type { LaneRecord } from '../../../src/contract/recording';
import { generateSession, writeGeneratedSessions } from '../../../src/transcripts';
import { laneColor, laneColorIndex, laneStroke, LANE_COLORS } from '../../../src/view';
import { tempDir } from '../replay/sessionBuilder';

/** Each lane's colour as the app's budget chart draws it, session by session (the timeline's swatches are the same). */
function appColors(recording: Recording): Record<string, string> {
  const sessions = [recording.session.sessionId, ...Object.keys(recording.childSessions)];
  return Object.fromEntries(
    sessions.flatMap((id) =>
      buildBudgetSeries(recording, lanesOfSession(recording, id), 'tiktoken').lanes.map((lane) => [
        lane.id,
        lane.color,
      ]),
    ),
  );
}

/** Each lane's colour as the HTML report draws it: its chart line's class, resolved through the report's CSS. */
function reportColors(recording: Recording): Record<string, string | undefined> {
  const html = renderHtmlReport(recording);
  const css = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
  const stroke = (cls: string) => new RegExp(`\\.chart \\.${cls}\\{stroke:([^}]+)\\}`).exec(css)?.[1];
  const label = (lane: LaneRecord) => lane.label.replace(/&/g, '&amp;');
  return Object.fromEntries(
    recording.lanes.map((lane) => {
      const line = new RegExp(
        `<polyline class="(series-\\d+) line"[^>]*><title>${label(lane).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} assembled tokens`,
      ).exec(html);
      return [lane.id, line ? stroke(line[1]!) : undefined];
    }),
  );
}

describe('lane colours', () => {
  let streamingLanes: LaneRecord[] = [];
  let finished: Recording;

  beforeAll(async () => {
    const stateDir = tempDir();
    await writeGeneratedSessions(generateSession({ turns: 12, seed: 'lane-colours', subagents: 2 }), stateDir);
    let live: { lanes(): LaneRecord[] } | undefined;
    finished = await replaySession({
      // lane transcripts written: a forked subagent needs its requester's transcript file
      session: sessionFile(stateDir),
      recordedTrajectory: false,
      lanes: [
        { engine: { kind: 'legacy' }, contextWindow: 200_000 },
        { engine: { kind: 'legacy' }, contextWindow: 64_000, label: 'small' },
      ],
      onLive: (l) => (live = l),
      // the lanes as the stream pages carry them, after each turn (the last ones still running hold the subagents)
      onTurn: () => (streamingLanes = live!.lanes()),
    });
  }, 60_000);

  it('the streaming and the finished replay hold the lanes in different orders', () => {
    expect(finished.lanes.filter((l) => l.parentLane).length).toBeGreaterThan(1);
    expect(streamingLanes.map((l) => l.id).sort()).toEqual(finished.lanes.map((l) => l.id).sort());
    expect(streamingLanes.map((l) => l.id)).not.toEqual(finished.lanes.map((l) => l.id));
  });

  it('give every lane the same colour, streaming and finished, in the chart and the timeline', () => {
    const streaming = { ...finished, lanes: streamingLanes };
    expect(appColors(streaming)).toEqual(appColors(finished));
  });

  it('give a subagent lane the colour of the lane it descends from, and the root lanes different colours', () => {
    const colors = appColors(finished);
    const roots = finished.lanes.filter((l) => !l.parentLane);
    expect(new Set(roots.map((l) => colors[l.id])).size).toBe(roots.length);
    for (const lane of finished.lanes.filter((l) => l.parentLane))
      expect([lane.id, colors[lane.id]]).toEqual([lane.id, colors[lane.parentLane!]]);
    expect(colors).toEqual(Object.fromEntries(finished.lanes.map((l) => [l.id, laneColor(finished.lanes, l.id)])));
  });

  it('are the app’s colours in the HTML report, subagent charts included', () => {
    expect(reportColors(finished)).toEqual(appColors(finished));
  });

  it('name a subagent’s lanes in its view after the lanes they descend from; its title names it and its parent', () => {
    const child = Object.keys(finished.childSessions)[0];
    expect(child).toBeDefined();
    const lanes = lanesOfSession(finished, child!);
    // the recording's own labels say which subagent: the view's title says it once instead
    expect(lanes.map((l) => l.label)).toEqual(
      lanes.map((l) => `${finished.lanes.find((p) => p.id === l.parentLane)!.label} › ${l.childSessionKey}`),
    );
    expect(lanesNamedForView(finished, lanes).map((l) => [l.id, l.label])).toEqual(
      lanes.map((l) => [l.id, l.parentLane === finished.lanes[0]!.id ? 'legacy' : 'small']),
    );
    const key = lanes[0]!.childSessionKey!;
    expect(key).toMatch(/^agent:main:subagent:/);
    // the title names the subagent as the Sessions list does (its uuid's first 8), the hint its whole key
    expect(sessionViewTitle(finished, child!, 'agent:main:main')).toEqual({
      title: `subagent ${key.split(':').pop()!.slice(0, 8)} · child of agent:main:main`,
      hint: `subagent ${key} · child of agent:main:main`,
    });
    // the root session keeps the recording's title and its lanes' names
    const root = lanesOfSession(finished, finished.session.sessionId);
    expect(lanesNamedForView(finished, root)).toEqual(root);
    expect(sessionViewTitle(finished, finished.session.sessionId, 'agent:main:main')).toEqual({
      title: 'agent:main:main',
      hint: 'agent:main:main',
    });
    // a subagent's subagent: named after the root lane, its title names the subagent that spawned it
    const grandchild = {
      ...lanes[0]!,
      id: 'grand',
      parentLane: lanes[0]!.id,
      sessionId: 'grand-session',
      childSessionKey: 'agent:main:subagent:g',
    };
    const nested = { ...finished, lanes: [...finished.lanes, grandchild] };
    expect(lanesNamedForView(nested, [grandchild])[0]!.label).toBe('legacy');
    expect(sessionViewTitle(nested, 'grand-session', 'agent:main:main')).toEqual({
      title: `subagent g · child of ${key.split(':').pop()!.slice(0, 8)}`,
      hint: `subagent agent:main:subagent:g · child of ${key}`,
    });
  });

  it('come from the lanes the replay started with: a lane not in the list gets the next colour', () => {
    const lanes = [{ id: 'a' }, { id: 'a/x', parentLane: 'a' }, { id: 'b' }, { id: 'orphan', parentLane: 'gone' }];
    expect(lanes.map((l) => laneColorIndex(lanes, l.id))).toEqual([0, 0, 1, 2]);
    expect(laneColor(lanes, 'b')).toBe(LANE_COLORS[1]);
  });
});

/** The generated parent transcript (sessions.json names it). */
function sessionFile(stateDir: string): string {
  const dir = join(stateDir, 'agents', 'main', 'sessions');
  const store = JSON.parse(readFileSync(join(dir, 'sessions.json'), 'utf8')) as Record<string, { sessionId: string }>;
  return join(dir, `${store['agent:main:main']!.sessionId}.jsonl`);
}

describe('lane lines drawn over one another', () => {
  /** The lane whose stroke is on top at px `at` along a line all `count` lanes share (later lanes drawn later). */
  function topLane(count: number, at: number): number {
    for (let lane = count - 1; lane > 0; lane--) {
      const { dasharray, dashoffset } = laneStroke(lane, count);
      const [dash, gap] = dasharray!.split(' ').map(Number) as [number, number];
      if ((at + dashoffset!) % (dash + gap) < dash) return lane;
    }
    return 0;
  }

  it('shows every lane somewhere along a line they all share: the first solid, the later ones dashed apart', () => {
    expect(laneStroke(0, 3)).toEqual({});
    expect(laneStroke(0, 1)).toEqual({});
    for (let count = 1; count <= LANE_COLORS.length; count++) {
      const shown = new Set<number>();
      for (let at = 0; at < 8 * count; at++) shown.add(topLane(count, at + 0.5));
      expect([count, [...shown].sort()]).toEqual([count, Array.from({ length: count }, (_, i) => i)]);
    }
  });

  it('strokes the HTML report chart’s lines as the app does', () => {
    const same = { values: [1, 2, 3], budget: [], markers: [] };
    const svg = renderBudgetChart({
      title: 't',
      series: [
        { ...same, label: 'a' },
        { ...same, label: 'b' },
      ],
    });
    const lines = [...svg.matchAll(/<polyline class="series-\d line"[^>]*>/g)].map((m) => m[0]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).not.toContain('stroke-dasharray');
    expect(lines[1]).toContain(
      `stroke-dasharray="${laneStroke(1, 2).dasharray}" stroke-dashoffset="${laneStroke(1, 2).dashoffset}"`,
    );
  });
});

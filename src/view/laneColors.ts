/**
 * The colour a lane is drawn in, everywhere: the app's timeline, budget chart, Compare and a subagent's view, and
 * the HTML report. It depends only on what is fixed when the replay starts — the lanes it was started with, in
 * their order — never on a lane's place in `recording.lanes`: that list grows while a replay streams (subagent lanes
 * are appended as their spawns are reached) and is put in family order when it ends, so a position there would
 * give the same lane another colour in the streaming and the finished replay. A subagent lane takes the colour of
 * the lane it descends from (its `legacy` child is drawn like `legacy`).
 */
import type { LaneRecord } from './viewTypes';

/** Mid-tone colours that read on both the light and the dark surface (contrast ≥ 3:1 against each). */
export const LANE_COLORS = [
  '#4c6ef5',
  '#e8590c',
  '#2f9e44',
  '#d6336c',
  '#7950f2',
  '#1098ad',
  '#a07e00',
  '#868e96',
] as const;

type LaneLink = Pick<LaneRecord, 'id' | 'parentLane'>;

/**
 * The lane the replay was started with that `laneId` is (or descends from): its colour here, and its name in a
 * subagent's view (the renderer's recordingLanes).
 */
export function rootLaneId(lanes: readonly LaneLink[], laneId: string): string {
  const byId = new Map(lanes.map((lane) => [lane.id, lane]));
  let current = byId.get(laneId);
  const seen = new Set<string>();
  while (current?.parentLane !== undefined && byId.has(current.parentLane) && !seen.has(current.id)) {
    seen.add(current.id);
    current = byId.get(current.parentLane);
  }
  return current?.id ?? laneId;
}

/**
 * The lane's colour index: the position of its root lane among the recording's root lanes (lanes without a
 * parent, which the replay adds in the order it was started with, before any subagent lane). A lane the list does
 * not hold gets the next index after them.
 */
export function laneColorIndex(lanes: readonly LaneLink[], laneId: string): number {
  const root = rootLaneId(lanes, laneId);
  let index = 0;
  for (const lane of lanes) {
    if (lane.parentLane !== undefined) continue;
    if (lane.id === root) return index;
    index++;
  }
  return index;
}

/** The lane's colour (LANE_COLORS, by laneColorIndex). */
export function laneColor(lanes: readonly LaneLink[], laneId: string): string {
  return LANE_COLORS[laneColorIndex(lanes, laneId) % LANE_COLORS.length]!;
}

/** px of one dash of a lane line drawn over other lanes' lines (laneStroke) */
const LANE_DASH = 8;

/**
 * How the `position`-th of `count` lane lines drawn over one another is stroked, so that lanes with the same
 * figures do not hide each other: the first solid, each later one dashed, its dashes where no other later lane has
 * one (a period of `count` dashes, lane k drawing the k-th). Where all lines coincide each lane's colour shows in
 * turn; where they part, the later lanes read as dashed lines. SVG `stroke-dasharray` / `stroke-dashoffset`.
 */
export function laneStroke(position: number, count: number): { dasharray?: string; dashoffset?: number } {
  if (position <= 0 || count <= 1) return {};
  const k = Math.min(position, count - 1);
  return { dasharray: `${LANE_DASH} ${(count - 1) * LANE_DASH}`, dashoffset: (count - k) * LANE_DASH };
}

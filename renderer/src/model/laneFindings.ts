/** The lane-level findings of a Recording, grouped for the Replay view's notices. Pure. */
import type { Recording } from '../recordingTypes';

export interface LaneFindingGroup {
  code: string;
  severity: string;
  message: string;
  /** labels of the lanes the finding applies to */
  lanes: string[];
}

/**
 * Lane-level findings (turn null: settings that affect every turn, an engine quarantined before its first turn),
 * one group per distinct message with the labels of the lanes it applies to: the findings the Replay header counts
 * "outside turns" (src/view turnProblems) — of `laneIds` when given (the lanes the timeline shows). A lane-level quarantine of a lane whose error is shown is left out: that
 * notice already says why.
 */
export function groupLaneFindings(recording: Recording, laneIds?: readonly string[]): LaneFindingGroup[] {
  const groups = new Map<string, LaneFindingGroup>();
  const shown = laneIds ? new Set(laneIds) : null;
  for (const f of recording.findings) {
    if (f.turn !== null || (shown && !shown.has(f.lane))) continue;
    const lane = recording.lanes.find((l) => l.id === f.lane);
    if (f.code === 'quarantined' && lane?.error) continue;
    const label = lane?.label ?? f.lane;
    const key = `${f.code}\n${f.message}`;
    const group = groups.get(key);
    if (group) group.lanes.push(label);
    else groups.set(key, { code: f.code, severity: f.severity, message: f.message, lanes: [label] });
  }
  return [...groups.values()];
}

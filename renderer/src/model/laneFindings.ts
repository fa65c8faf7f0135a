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
 * Lane-level findings (turn null: settings that affect every turn), one group per distinct message with the
 * labels of the lanes it applies to. Lane-level quarantines are left out: the lane's error already says why.
 */
export function groupLaneFindings(recording: Recording): LaneFindingGroup[] {
  const groups = new Map<string, LaneFindingGroup>();
  for (const f of recording.findings) {
    if (f.turn !== null || f.code === 'quarantined') continue;
    const label = recording.lanes.find((l) => l.id === f.lane)?.label ?? f.lane;
    const key = `${f.code}\n${f.message}`;
    const group = groups.get(key);
    if (group) group.lanes.push(label);
    else groups.set(key, { code: f.code, severity: f.severity, message: f.message, lanes: [label] });
  }
  return [...groups.values()];
}

import { groupLaneFindings } from '../model/laneFindings';
import type { Recording } from '../recordingTypes';
import { Notice } from './Notice';

export interface ReplayNoticesProps {
  recording: Recording;
  exportError: string | null;
  /** the lanes the timeline shows: their lane-level findings are the header's "outside turns" (default: every lane) */
  laneIds?: readonly string[];
}

/** What went wrong around the replay: a failed export, lanes that failed, lane-level findings, transcript problems. */
export function ReplayNotices({ recording, exportError, laneIds }: ReplayNoticesProps) {
  const problems = recording.session.problems;
  return (
    <>
      {exportError && <Notice tone="error">Export failed: {exportError}</Notice>}
      {recording.lanes
        .filter((lane) => lane.error)
        .map((lane) => (
          <Notice key={lane.id} tone="error">
            Lane <span className="mono">{lane.label}</span>: {lane.error}
          </Notice>
        ))}
      {groupLaneFindings(recording, laneIds).map((group) => (
        <Notice key={`${group.code}-${group.lanes.join(',')}`} tone={group.severity === 'error' ? 'error' : 'info'}>
          <span data-testid="lane-finding">
            {group.lanes.length === 1 ? 'Lane' : 'Lanes'} <span className="mono">{group.lanes.join(', ')}</span> (
            {group.code}): {group.message}
          </span>
        </Notice>
      ))}
      {problems.length > 0 && (
        <Notice tone="info">
          The transcript had {problems.length} problems (read tolerantly): line {problems[0]!.line}:{' '}
          {problems[0]!.message}
        </Notice>
      )}
    </>
  );
}

/**
 * A new recording on screen: what the views looked at in the previous one starts afresh, because it named that
 * recording's sessions, lanes and turns — the selection (the root session, its first lane, turn 1, nothing
 * expanded, every turn listed), the timeline's search and filters, and Compare's lane ticks, mode (this
 * recording's lanes, no baseline), filters, cell and folds. Every way a recording becomes the current one goes
 * through here (a replay's first turns, a recent or imported recording, a batch row, a deep link); later pages of
 * the same recording (a streamed replay's, a live pass) keep what the user set.
 */
import type { Recording } from '../recordingTypes';
import { useCompareStore } from '../store/compareStore';
import { useSelectionStore } from '../store/selectionStore';
import { useTimelineFilterStore } from '../store/timelineFilterStore';

export function startRecordingView(recording: Recording): void {
  const lane =
    recording.lanes.find((candidate) => candidate.sessionId === recording.session.sessionId) ?? recording.lanes[0];
  useSelectionStore.getState().reset(recording.session.sessionId, lane?.id ?? null);
  useTimelineFilterStore.getState().clear();
  useCompareStore.getState().startAfresh();
}

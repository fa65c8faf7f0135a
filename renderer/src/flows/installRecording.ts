/**
 * Shows a recording that did not come from a replay of this window (a recent or imported recording, a batch row,
 * a deep link's): it becomes the current one, and the views start afresh on it (recordingView.ts).
 */
import type { Recording } from '../recordingTypes';
import { useReplayStore } from '../store/replayStore';
import { startRecordingView } from './recordingView';

export function installRecording(recording: Recording, id: string | null, title: string): void {
  useReplayStore.setState({ recording, recordingReplayId: id, recordingTitle: title, exportError: null });
  startRecordingView(recording);
}

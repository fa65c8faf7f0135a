import type { InspectorApi } from '../../../src/bridge';
import { downloadText } from '../downloadText';
import { useReplayStore, type ExportFormat } from '../store/replayStore';

export function exportFileName(title: string, format: ExportFormat): string {
  const safe = title.replace(/[^a-zA-Z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'replay';
  return `contextscope-${safe}.${format === 'json' ? 'recording.json' : 'report.html'}`;
}

/** Asks the bridge for the export and saves it as a file (an error is shown from the store's exportError). */
export function exportCurrentRecording(api: InspectorApi, format: ExportFormat): void {
  const title = useReplayStore.getState().recordingTitle;
  void useReplayStore
    .getState()
    .exportRecording(api, format)
    .then((content) => {
      if (content !== null)
        downloadText(exportFileName(title, format), content, format === 'json' ? 'application/json' : 'text/html');
    });
}

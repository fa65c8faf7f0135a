import { useEffect } from 'react';
import { useInspectorClient } from '../bridge/ClientContext';
import type { InspectorClient } from '../bridge/InspectorClient';
import { RecentRecordings } from '../components/RecentRecordings';
import { formatBytes } from '../formatQuantities';
import { useRecentRecordingsStore, wireRecentRecordings } from '../store/recentRecordingsStore';

/** For the app frame: finished replays are kept, links and files open through the list, the latest is restored. */
export function useRecentRecordings(client: InspectorClient | null): void {
  useEffect(() => (client ? wireRecentRecordings(client) : undefined), [client]);
}

/** The recent recordings of the app's config dir, with "Open recording file…" and drop to open. */
export function RecentRecordingsCard() {
  const client = useInspectorClient();
  const { entries, limits, currentId, error, open, remove, importFile } = useRecentRecordingsStore();
  return (
    <RecentRecordings
      entries={entries}
      currentId={currentId}
      error={error}
      limitText={
        limits
          ? `Kept in ${limits.dir}: the ${limits.maxCount} most recently opened, up to ${formatBytes(limits.maxBytes)}.`
          : ''
      }
      onOpen={(id) => client && void open(client, id)}
      onRemove={(id) => client && void remove(client, id)}
      onOpenFile={(name, text) => client && void importFile(client, name, text)}
    />
  );
}

import { useMemo } from 'react';
import { TimelineFilterBar } from '../components/TimelineFilterBar';
import { messageRoles } from '../model/timelineFilter';
import type { Recording } from '../recordingTypes';
import { useTimelineFilterStore } from '../store/timelineFilterStore';

/** The Replay timeline's search bar, connected to its store. */
export function TimelineSearch({ recording, shown, total }: { recording: Recording; shown: number; total: number }) {
  const { filter, setFilter, clear } = useTimelineFilterStore();
  const roles = useMemo(() => messageRoles(recording), [recording]);
  return (
    <TimelineFilterBar filter={filter} roles={roles} shown={shown} total={total} onChange={setFilter} onClear={clear} />
  );
}

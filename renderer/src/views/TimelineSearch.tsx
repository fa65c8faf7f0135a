import { useMemo } from 'react';
import { TimelineFilterBar } from '../components/TimelineFilterBar';
import { TimelineNoMatch } from '../components/TimelineNoMatch';
import { messageRoles, timelineFilterConditions } from '../model/timelineFilter';
import type { Recording } from '../recordingTypes';
import { useSelectionStore } from '../store/selectionStore';
import { useTimelineFilterStore } from '../store/timelineFilterStore';

/** The Replay timeline's search bar, connected to its store. */
export function TimelineSearch({ recording, shown, total }: { recording: Recording; shown: number; total: number }) {
  const { filter, setFilter, clear } = useTimelineFilterStore();
  const roles = useMemo(() => messageRoles(recording), [recording]);
  return (
    <TimelineFilterBar filter={filter} roles={roles} shown={shown} total={total} onChange={setFilter} onClear={clear} />
  );
}

/** In place of the timeline when its filters keep out every turn: which ones, and Clear (search and "only differ"). */
export function TimelineFilterEmpty({ total }: { total: number }) {
  const filter = useTimelineFilterStore((s) => s.filter);
  const onlyDiffering = useSelectionStore((s) => s.onlyDiffering);
  const conditions = useMemo(() => timelineFilterConditions(filter, onlyDiffering), [filter, onlyDiffering]);
  return (
    <TimelineNoMatch
      conditions={conditions}
      total={total}
      onClear={() => {
        useTimelineFilterStore.getState().clear();
        useSelectionStore.getState().setOnlyDiffering(false);
      }}
    />
  );
}

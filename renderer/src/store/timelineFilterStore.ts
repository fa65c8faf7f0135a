/** The Replay timeline's search and filter (text, role, event kind) and the search within the turn's messages. */
import { create } from 'zustand';
import { NO_TIMELINE_FILTER, type TimelineFilter } from '../model/timelineFilter';

export interface TimelineFilterState {
  filter: TimelineFilter;
  /** text to find in the selected turn's message lists ('' = all messages) */
  messageQuery: string;
  setFilter(patch: Partial<TimelineFilter>): void;
  setMessageQuery(query: string): void;
  clear(): void;
}

export const useTimelineFilterStore = create<TimelineFilterState>()((set, get) => ({
  filter: NO_TIMELINE_FILTER,
  messageQuery: '',
  setFilter: (patch) => set({ filter: { ...get().filter, ...patch } }),
  setMessageQuery: (messageQuery) => set({ messageQuery }),
  clear: () => set({ filter: NO_TIMELINE_FILTER, messageQuery: '' }),
}));

export function resetTimelineFilterStore(): void {
  useTimelineFilterStore.setState({ filter: NO_TIMELINE_FILTER, messageQuery: '' });
}

/**
 * Search and filter of the Replay timeline: turns whose messages contain a text (optionally only messages of one
 * role), and turns with an event of one kind on any lane — error, warning and finding turns as src/view defines them
 * (turnProblems.ts: the turns the Replay header counts), the rest by their badge. A turn's messages are the ones it brought to the
 * transcript (its prompt and the recorded output: `newMessageKeys`), so each message is found at the turn it
 * appeared in, and the search stays linear in the session's length. Pure.
 */
import { PROBLEM_DEFINITIONS, type ProblemKind } from '../../../src/view';
import type { BadgeKind, TimelineRow } from './timelineRows';
import { messageText } from './messageText';
import type { LaneRecord, Recording } from '../recordingTypes';

export interface TimelineFilter {
  /** text to find in the turn's messages (case-insensitive); '' = every turn */
  text: string;
  /** only messages of this role ('' = any) */
  role: string;
  /** only error / warning / finding turns, or turns with a badge of this kind, on some lane ('' = any) */
  event: '' | TimelineEventKind;
}

export type TimelineEventKind = ProblemKind | Extract<BadgeKind, 'compaction' | 'quarantine' | 'spawn' | 'host'>;

export const NO_TIMELINE_FILTER: TimelineFilter = { text: '', role: '', event: '' };

export function isFiltering(filter: TimelineFilter): boolean {
  return filter.text.trim() !== '' || filter.role !== '' || filter.event !== '';
}

/** The event filter's choices, as the filter bar lists them. */
export const TIMELINE_EVENT_CHOICES: readonly { value: '' | TimelineEventKind; label: string; title?: string }[] = [
  { value: '', label: 'any event' },
  { value: 'error', label: 'error', title: `Error turns: ${PROBLEM_DEFINITIONS.error}` },
  { value: 'warning', label: 'warning', title: `Warning turns: ${PROBLEM_DEFINITIONS.warning}` },
  { value: 'finding', label: 'finding', title: `Finding turns: ${PROBLEM_DEFINITIONS.finding}` },
  { value: 'compaction', label: 'compaction' },
  { value: 'quarantine', label: 'quarantine' },
  { value: 'spawn', label: 'subagent spawn' },
  { value: 'host', label: 'host unsupported' },
];

function isProblemKind(kind: TimelineEventKind): kind is ProblemKind {
  return kind === 'error' || kind === 'warning' || kind === 'finding';
}

/** Whether some lane's cell of the row has the event (an error / warning / finding turn, or a badge of that kind). */
export function rowHasEvent(row: TimelineRow, kind: TimelineEventKind): boolean {
  if (isProblemKind(kind)) return row.cells.some((cell) => cell?.problems[kind] === true);
  return row.cells.some((cell) => cell?.badges.some((b) => b.kind === kind));
}

/**
 * What keeps turns out of the timeline, one phrase per condition ([] when nothing does): the search, role and
 * event filters, and "only turns where lanes differ".
 */
export function timelineFilterConditions(filter: TimelineFilter, onlyDiffering: boolean): string[] {
  const conditions: string[] = [];
  const text = filter.text.trim();
  if (text !== '')
    conditions.push(`${filter.role === '' ? 'a message' : `a ${filter.role} message`} containing “${text}”`);
  else if (filter.role !== '') conditions.push(`a new ${filter.role} message`);
  if (filter.event !== '') {
    const label = TIMELINE_EVENT_CHOICES.find((choice) => choice.value === filter.event)?.label ?? filter.event;
    conditions.push(`a ${label} event`);
  }
  if (onlyDiffering) conditions.push('lanes that differ');
  return conditions;
}

/** The roles of the recording's messages, sorted (the role filter's choices). */
export function messageRoles(recording: Recording): string[] {
  return [...new Set(Object.values(recording.messages).map((m) => m.role))].sort();
}

/** Lower-cased text of each message, computed once per recording. */
const textCache = new WeakMap<Recording, Map<string, string>>();

function lowerText(recording: Recording, key: string): string {
  let cache = textCache.get(recording);
  if (!cache) {
    cache = new Map();
    textCache.set(recording, cache);
  }
  let text = cache.get(key);
  if (text === undefined) {
    const stored = recording.messages[key];
    text = stored ? messageText(stored.message).toLowerCase() : '';
    cache.set(key, text);
  }
  return text;
}

function turnMatches(
  recording: Recording,
  lanes: readonly LaneRecord[],
  turn: number,
  text: string,
  role: string,
): boolean {
  for (const lane of lanes) {
    const record = recording.turns[lane.id]?.[turn];
    if (!record) continue;
    for (const key of record.newMessageKeys) {
      if (role !== '' && recording.messages[key]?.role !== role) continue;
      if (text === '' || lowerText(recording, key).includes(text)) return true;
    }
  }
  return false;
}

export function filterTimelineRows(
  rows: readonly TimelineRow[],
  recording: Recording,
  lanes: readonly LaneRecord[],
  filter: TimelineFilter,
): TimelineRow[] {
  if (!isFiltering(filter)) return [...rows];
  const text = filter.text.trim().toLowerCase();
  return rows.filter((row) => {
    if (filter.event !== '' && !rowHasEvent(row, filter.event)) return false;
    if (text === '' && filter.role === '') return true;
    return turnMatches(recording, lanes, row.turn, text, filter.role);
  });
}

/** Rows of a turn's message list that contain `text` (case-insensitive) and have `role` ('' = any). */
export function filterMessages<T extends { text: string; role: string }>(
  rows: readonly T[],
  text: string,
  role = '',
): readonly T[] {
  const needle = text.trim().toLowerCase();
  if (needle === '' && role === '') return rows;
  return rows.filter((row) => (role === '' || row.role === role) && row.text.toLowerCase().includes(needle));
}

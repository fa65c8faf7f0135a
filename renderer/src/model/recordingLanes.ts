/**
 * Which lanes of a Recording belong together. (The colour each lane is drawn in is src/view's laneColor, which the
 * HTML report uses too.) Pure.
 */
import type { LaneRecord, Recording, SessionInfo } from '../recordingTypes';

/** The lanes replaying one session (the root session, or one subagent child), in recording order. */
export function lanesOfSession(recording: Recording, sessionId: string): LaneRecord[] {
  return recording.lanes.filter((lane) => lane.sessionId === sessionId);
}

/** The session a lane replays (omitted/summarized ranges index into its messageKeys). */
export function sessionOfLane(recording: Recording, lane: LaneRecord): SessionInfo {
  if (lane.sessionId === recording.session.sessionId) return recording.session;
  return recording.childSessions[lane.sessionId] ?? recording.session;
}

export interface SessionChoice {
  sessionId: string;
  label: string;
}

/** The root session first, then each replayed subagent child with the lane that spawned it. */
export function sessionChoices(recording: Recording): SessionChoice[] {
  const choices: SessionChoice[] = [{ sessionId: recording.session.sessionId, label: 'Main session' }];
  for (const sessionId of Object.keys(recording.childSessions)) {
    const lane = recording.lanes.find((l) => l.sessionId === sessionId);
    const where =
      lane?.parentLane !== undefined ? ` (spawned by ${lane.parentLane} at turn ${(lane.spawnedAtTurn ?? 0) + 1})` : '';
    choices.push({ sessionId, label: `Subagent ${lane?.childSessionKey ?? sessionId}${where}` });
  }
  return choices;
}

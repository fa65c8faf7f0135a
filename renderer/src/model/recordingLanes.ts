/**
 * Which lanes of a Recording belong together. (The colour each lane is drawn in is src/view's laneColor, which the
 * HTML report uses too.) Pure.
 */
import { rootLaneId } from '../../../src/view';
import type { LaneRecord, Recording, SessionInfo } from '../recordingTypes';
import { shortSessionKey } from './sessionRows';

/** The lanes replaying one session (the root session, or one subagent child), in recording order. */
export function lanesOfSession(recording: Recording, sessionId: string): LaneRecord[] {
  return recording.lanes.filter((lane) => lane.sessionId === sessionId);
}

/**
 * The lanes of one session as its view names them: a subagent's lane by the lane the replay started with that it
 * descends from ("legacy", not the recording's "legacy › agent:main:subagent:…", which would stack the lane tabs
 * and widen the timeline past its pane), as it is drawn in that lane's colour; the view's title names the subagent
 * (sessionViewTitle).
 */
export function lanesNamedForView(recording: Recording, lanes: readonly LaneRecord[]): LaneRecord[] {
  return lanes.map((lane) => {
    if (lane.parentLane === undefined) return lane;
    const root = recording.lanes.find((l) => l.id === rootLaneId(recording.lanes, lane.id));
    return root ? { ...lane, label: root.label } : lane;
  });
}

/**
 * What the Replay view's title names: the recording's title for the root session; for a subagent's, the subagent
 * (its key's short form, as the Sessions list names it) and the session that spawned it ("subagent 28a20818 · child
 * of agent:main:main"), with its whole key as the hint.
 */
export function sessionViewTitle(
  recording: Recording,
  sessionId: string,
  recordingTitle: string,
): { title: string; hint: string } {
  const rootTitle = recordingTitle || recording.session.sessionId;
  const lane = recording.lanes.find((l) => l.sessionId === sessionId && l.parentLane !== undefined);
  if (sessionId === recording.session.sessionId || !lane) return { title: rootTitle, hint: rootTitle };
  const parent = recording.lanes.find((l) => l.id === lane.parentLane);
  const parentName =
    parent === undefined || parent.sessionId === recording.session.sessionId
      ? rootTitle
      : shortSessionKey(parent.childSessionKey ?? parent.sessionId);
  const key = lane.childSessionKey ?? sessionId;
  return {
    title: `subagent ${shortSessionKey(key)} · child of ${parentName}`,
    hint: `subagent ${key} · child of ${parent?.childSessionKey ?? rootTitle}`,
  };
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

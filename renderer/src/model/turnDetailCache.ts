/**
 * Each turn's detail built once per Recording, keyed by lane and turn: returning to a turn (j then k) costs a map
 * lookup. A streaming replay swaps in a new Recording as turns arrive, which starts a new cache (its turns and
 * findings may have grown); the message texts the details share are cached by message record (turnDetail.ts).
 */
import type { Recording } from '../recordingTypes';
import { buildTurnDetail, type TurnDetail } from './turnDetail';

const details = new WeakMap<Recording, Map<string, TurnDetail | null>>();

export function cachedTurnDetail(recording: Recording, laneId: string, turn: number): TurnDetail | null {
  let byTurn = details.get(recording);
  if (!byTurn) details.set(recording, (byTurn = new Map()));
  const key = `${laneId}\u0000${turn}`;
  let detail = byTurn.get(key);
  if (detail === undefined) byTurn.set(key, (detail = buildTurnDetail(recording, laneId, turn)));
  return detail;
}

/**
 * Whether a lane's engine was quarantined at or before a turn, and what to say about it: which engine, in which
 * operation, why, and that the lane runs on `legacy` from then on (OpenClaw's downgrade).
 */
import type { Recording } from './viewTypes';

export interface LaneQuarantine {
  engineId: string;
  owner?: string;
  operation: string;
  reason: string;
  /** the turn it happened in; null when it happened while the engine was resolved, before the first turn */
  turn: number | null;
  /** the engine that serves the lane at the turn asked about */
  servedBy: string;
  /** one sentence for a banner */
  text: string;
}

function bannerText(q: Omit<LaneQuarantine, 'text'>): string {
  const when = q.turn === null ? 'before the first turn' : `at turn ${q.turn + 1}`;
  return `${q.engineId} was quarantined in ${q.operation} ${when}: ${q.reason}. The lane runs on ${q.servedBy} from then on.`;
}

/** The first quarantine of `laneId` at or before `turn`, or null. */
export function laneQuarantineAt(recording: Recording, laneId: string, turn: number): LaneQuarantine | null {
  const turns = recording.turns[laneId] ?? [];
  const servedBy = turns[Math.min(turn, turns.length - 1)]?.engine.engineId ?? 'legacy';
  const last = Math.min(turn, turns.length - 1);
  for (let t = 0; t <= last; t++) {
    const record = turns[t]!;
    const event = record.events.find((e) => e.type === 'quarantine');
    if (event) {
      const found = { ...pick(event), turn: t, servedBy: servedBy === event.engineId ? 'legacy' : servedBy };
      return { ...found, text: bannerText(found) };
    }
    if (record.engine.quarantined) {
      const early = recording.events.find((e) => e.type === 'quarantine' && e.lane === laneId);
      const found =
        early && early.type === 'quarantine'
          ? { ...pick(early), turn: early.turn, servedBy }
          : {
              engineId: record.engine.requestedId,
              operation: 'an earlier call',
              reason: 'the recording does not say why',
              turn: t,
              servedBy,
            };
      return { ...found, text: bannerText(found) };
    }
  }
  return null;
}

function pick(event: { engineId: string; owner?: string; operation: string; reason: string }) {
  return {
    engineId: event.engineId,
    ...(event.owner !== undefined ? { owner: event.owner } : {}),
    operation: event.operation,
    reason: event.reason,
  };
}

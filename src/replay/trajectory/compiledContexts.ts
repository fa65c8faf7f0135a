/**
 * The `context.compiled` events of a trajectory, one per replayed turn. OpenClaw records one per prompt
 * submission (2026.9.6: per turn; 2026.7.35: per attempt, so a retried turn has several — the last is what the
 * model finally got), after the context engine and before the prompt is appended: `data.messages` is the
 * assembled context, `data.prompt` the prompt, `data.transcriptLeafId` the transcript leaf at that moment — the
 * entry the turn's user message is appended to. A turn is found by that leaf, else by its prompt text in order.
 */
import type { TrajectoryEvent } from '../../transcripts';
import { isRecord } from '../../common/guards';
import type { PreparedSession } from '../session/prepareSession';
import { promptTextOf } from '../session/sessionTurns';

export interface CompiledContext {
  turn: number;
  runId: string | null;
  seq: number;
  /** the recorded messages, as stored (truncation markers included); null when the whole event was cut */
  messages: unknown[] | null;
  prompt: string | null;
  /** context.compiled events of the same turn (attempts) */
  attempts: number;
}

export interface AlignedContexts {
  byTurn: Map<number, CompiledContext>;
  /** context.compiled events that belong to no turn of the session (e.g. heartbeat runs it did not keep) */
  unaligned: number;
  total: number;
}

function dataOf(event: TrajectoryEvent): Record<string, unknown> {
  return isRecord(event.event.data) ? event.event.data : {};
}

export function alignCompiledContexts(events: readonly TrajectoryEvent[], session: PreparedSession): AlignedContexts {
  const turns = session.split.turns;
  const byLeaf = new Map<string, number>();
  for (const turn of turns) if (turn.userEntry.parentId) byLeaf.set(turn.userEntry.parentId, turn.index);
  const byTurn = new Map<number, CompiledContext>();
  let unaligned = 0;
  let total = 0;
  let cursor = 0;
  for (const event of events) {
    if (event.type !== 'context.compiled') continue;
    total++;
    const data = dataOf(event);
    const prompt = typeof data.prompt === 'string' ? data.prompt : null;
    let turn = typeof data.transcriptLeafId === 'string' ? byLeaf.get(data.transcriptLeafId) : undefined;
    if (turn === undefined && prompt !== null) {
      const next = turns.findIndex((t, i) => i >= cursor && promptTextOf(t.userEntry.message) === prompt);
      if (next >= 0) turn = next;
    }
    if (turn === undefined) {
      unaligned++;
      continue;
    }
    cursor = Math.max(cursor, turn);
    const previous = byTurn.get(turn);
    byTurn.set(turn, {
      turn,
      runId: event.runId,
      seq: event.seq,
      messages: Array.isArray(data.messages) ? data.messages : null,
      prompt,
      attempts: (previous?.attempts ?? 0) + 1,
    });
  }
  return { byTurn, unaligned, total };
}

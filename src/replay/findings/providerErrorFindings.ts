/**
 * `provider-error`: the recorded session itself shows a failed model call — an assistant message with
 * `stopReason: "error"` and the provider's `errorMessage` (e.g. `400 … tool_use ids were found without tool_result
 * blocks`). It is a fact of the recording, not of a lane, so it is reported once, on the first root lane and its
 * subagent lanes (each child session's own errors on its lane).
 */
import type { AssistantMessage } from '../../contract';
import type { Finding, LaneRecord, TurnRecord } from '../../contract/recording';
import type { MessageTable } from '../recording/messageTable';
import { FINDING_SEVERITY } from './computeTurnFindings';

function rootOf(lane: LaneRecord, byId: ReadonlyMap<string, LaneRecord>): LaneRecord {
  let current = lane;
  while (current.parentLane && byId.has(current.parentLane)) current = byId.get(current.parentLane)!;
  return current;
}

function httpStatus(text: string): string | undefined {
  return /\b([45]\d\d)\b/.exec(text)?.[1];
}

export function providerErrorFindings(
  lanes: readonly LaneRecord[],
  turns: Readonly<Record<string, TurnRecord[]>>,
  table: MessageTable,
): Finding[] {
  const byId = new Map(lanes.map((l) => [l.id, l]));
  const base = lanes.find((l) => !l.parentLane && l.source !== 'trajectory');
  if (!base) return [];
  const out: Finding[] = [];
  for (const lane of lanes) {
    if (rootOf(lane, byId) !== base) continue;
    for (const record of turns[lane.id] ?? []) {
      for (const key of record.newMessageKeys) {
        const message = table.get(key)?.message;
        if (message?.role !== 'assistant' || (message as AssistantMessage).stopReason !== 'error') continue;
        const error = (message as AssistantMessage).errorMessage ?? '(no errorMessage recorded)';
        const status = httpStatus(error);
        out.push({
          code: 'provider-error',
          severity: FINDING_SEVERITY['provider-error'],
          lane: lane.id,
          turn: record.turn,
          message:
            `The recorded model call of turn ${record.turn + 1} failed at the provider` +
            `${status ? ` (HTTP ${status})` : ''}: ${error.length > 300 ? `${error.slice(0, 297)}…` : error} ` +
            `(assistant message ${key}, stopReason "error"). OpenClaw's run ended here; every lane replays the ` +
            'turn as prompt_error. Compare what the lanes assembled for this turn to see whether the context caused it.',
        });
      }
    }
  }
  return out;
}

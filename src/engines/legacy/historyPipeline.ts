/**
 * The history pipeline that shapes what every engine (and legacy's pass-through) receives (behaviour §3.2):
 * turn validation → heartbeat-artifact removal → history-turn limit → tool-call/result pairing repair.
 * Pure and linear in the number of messages. Provider-specific sanitizing (step 1) is not reproduced.
 */
import type { AgentMessage } from '../../contract';
import { filterHeartbeatArtifacts, type HeartbeatFilterOptions } from './heartbeatArtifacts';
import { RemovalLog, type HistoryItem, type HistoryRemoval } from './historyItems';
import { limitHistoryTurns } from './limitHistoryTurns';
import { repairToolResultPairing, type InsertedToolResult } from './repairToolResultPairing';
import { validateTurns, type TurnValidation } from './validateTurns';

export interface HistoryPipelineOptions {
  /** provider turn rules (default `none`) */
  turnValidation?: TurnValidation;
  /** heartbeat-artifact removal settings; `false` disables it (default: on, OpenClaw's defaults) */
  heartbeat?: HeartbeatFilterOptions | false;
  /** max user turns kept; undefined = unlimited */
  historyLimit?: number;
  /** `transcriptPolicy.repairToolUseResultPairing` (default true) */
  repairToolResultPairing?: boolean;
}

export interface HistoryPipelineResult {
  messages: AgentMessage[];
  /** input messages left out (or merged into a neighbour), by input index, ascending */
  removed: HistoryRemoval[];
  /** synthetic tool results the repair inserted */
  inserted: InsertedToolResult[];
}

export function runHistoryPipeline(
  messages: readonly AgentMessage[],
  options: HistoryPipelineOptions = {},
): HistoryPipelineResult {
  const log = new RemovalLog();
  const inserted: InsertedToolResult[] = [];
  let items: HistoryItem[] = messages.map((message, source) => ({ message, source }));
  items = validateTurns(items, options.turnValidation ?? 'none', log);
  if (options.heartbeat !== false) items = filterHeartbeatArtifacts(items, options.heartbeat ?? {}, log);
  items = limitHistoryTurns(items, options.historyLimit, log);
  if (options.repairToolResultPairing !== false) items = repairToolResultPairing(items, log, inserted);
  // each input index is removed at most once: a bucket pass orders them in linear time
  const byIndex: (HistoryRemoval | undefined)[] = new Array(messages.length);
  for (const removal of log.removed) byIndex[removal.index] = removal;
  const removed = byIndex.filter((r): r is HistoryRemoval => r !== undefined);
  return { messages: items.map((item) => item.message), removed, inserted };
}

/** A message flowing through the history pipeline, with the index it had in the pipeline's input (-1 = synthetic). */
import type { AgentMessage } from '../../contract';

export interface HistoryItem {
  message: AgentMessage;
  source: number;
}

export type HistoryRemovalReason =
  | 'merged-into-previous-user'
  | 'merged-into-previous-assistant'
  | 'heartbeat-artifact'
  | 'history-limit'
  | 'orphan-tool-result'
  | 'duplicate-tool-result';

export interface HistoryRemoval {
  /** index in the pipeline's input */
  index: number;
  reason: HistoryRemovalReason;
}

/** Collects removals; a stage reports each message it drops (synthetic messages are not reported). */
export class RemovalLog {
  readonly removed: HistoryRemoval[] = [];
  add(item: HistoryItem, reason: HistoryRemovalReason): void {
    if (item.source >= 0) this.removed.push({ index: item.source, reason });
  }
}

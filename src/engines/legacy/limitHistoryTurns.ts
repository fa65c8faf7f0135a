/**
 * `limitHistoryTurns(messages, historyLimit)` (behaviour §3.2 step 4): keep the last `historyLimit` user turns — the
 * history from the `historyLimit`-th last user message on. `undefined`, 0 or a negative limit means unlimited.
 */
import type { HistoryItem, RemovalLog } from './historyItems';

export function limitHistoryTurns(
  items: readonly HistoryItem[],
  historyLimit: number | undefined,
  log: RemovalLog,
): HistoryItem[] {
  if (historyLimit === undefined || !Number.isFinite(historyLimit) || historyLimit <= 0) return [...items];
  const limit = Math.floor(historyLimit);
  let users = 0;
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i]!.message.role !== 'user') continue;
    users++;
    if (users === limit) {
      for (let k = 0; k < i; k++) log.add(items[k]!, 'history-limit');
      return items.slice(i);
    }
  }
  return [...items];
}

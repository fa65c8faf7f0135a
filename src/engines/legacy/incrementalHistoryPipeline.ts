/**
 * `runHistoryPipeline` for a transcript that mostly grows by appends (a replay lane calls it once per turn):
 * the result of the previous call is reused up to a checkpoint and only the messages after it are run through the
 * pipeline. Every call returns exactly what `runHistoryPipeline(messages, options)` would.
 *
 * A checkpoint is an input index `at` where the pipeline over `messages[0, at)` does not depend on anything from
 * `at` on: `messages[at]` is a real (non-heartbeat) user message — a heartbeat span's look-ahead stops at one —
 * and the tool-call repair's scan starts at it (no tool-call group is open across it). The state there is the
 * output so far, the removals and insertions so far, and the call ids answered so far. A call reuses it when the
 * new input holds the very same message objects (identity) before `at` and still has a real user message at
 * `at` (or ends there); anything else — a compaction, a rewritten entry — runs the whole pipeline again.
 *
 * Provider turn validation other than `none` and a history limit look at the whole history; with those options
 * every call runs the full pipeline.
 */
import type { AgentMessage } from '../../contract';
import { filterHeartbeatArtifacts, isHeartbeatUserMessage } from './heartbeatArtifacts';
import { RemovalLog, type HistoryItem, type HistoryRemoval } from './historyItems';
import { runHistoryPipeline, type HistoryPipelineOptions, type HistoryPipelineResult } from './historyPipeline';
import { repairToolResultPairing, type AnsweredCalls, type InsertedToolResult } from './repairToolResultPairing';

export type IncrementalHistoryPipeline = (messages: readonly AgentMessage[]) => HistoryPipelineResult;

interface Checkpoint {
  /** input index the reusable prefix ends at */
  at: number;
  messages: AgentMessage[];
  removed: HistoryRemoval[];
  inserted: InsertedToolResult[];
  /** how many answered call ids (in answer order) belong to the prefix */
  answeredCount: number;
}

/** The repair's answered call ids, in order, so additions after a checkpoint can be undone. */
class AnsweredTracker implements AnsweredCalls {
  private readonly ids = new Set<string>();
  private readonly order: string[] = [];
  get count(): number {
    return this.order.length;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    this.order.push(id);
  }
  rollback(count: number): void {
    while (this.order.length > count) this.ids.delete(this.order.pop()!);
  }
}

function isUnlimited(historyLimit: number | undefined): boolean {
  return historyLimit === undefined || !Number.isFinite(historyLimit) || historyLimit <= 0;
}

const emptyCheckpoint = (): Checkpoint => ({ at: 0, messages: [], removed: [], inserted: [], answeredCount: 0 });

export function createIncrementalHistoryPipeline(options: HistoryPipelineOptions = {}): IncrementalHistoryPipeline {
  if ((options.turnValidation ?? 'none') !== 'none' || !isUnlimited(options.historyLimit)) {
    return (messages) => runHistoryPipeline(messages, options);
  }
  const heartbeat = options.heartbeat;
  const repair = options.repairToolResultPairing !== false;
  // A user message the repair's scan starts at is not inside a tool-call group, whatever it is replaced with
  // later (another user message); an assistant it starts at may have ended the group before it, so it is no
  // checkpoint. With neither the heartbeat filter nor the repair, nothing looks ahead at all.
  const isBoundary =
    heartbeat !== false
      ? (message: AgentMessage) =>
          message.role === 'user' && !isHeartbeatUserMessage(message, heartbeat?.prompt, heartbeat?.variant)
      : repair
        ? (message: AgentMessage) => message.role === 'user'
        : () => true;
  const answered = new AnsweredTracker();
  let previous: AgentMessage[] | null = null;
  let checkpoint = emptyCheckpoint();

  const reusable = (messages: readonly AgentMessage[]): boolean => {
    const { at } = checkpoint;
    if (at === 0) return true;
    if (!previous || at > messages.length) return false;
    if (at < messages.length && !isBoundary(messages[at]!)) return false;
    for (let k = 0; k < at; k++) if (messages[k] !== previous[k]) return false;
    return true;
  };

  return (messages) => {
    if (!reusable(messages)) checkpoint = emptyCheckpoint();
    answered.rollback(checkpoint.answeredCount);
    const base = checkpoint.at;

    const log = new RemovalLog();
    const inserted: InsertedToolResult[] = [];
    let items: HistoryItem[] = new Array(messages.length - base);
    for (let k = base; k < messages.length; k++) items[k - base] = { message: messages[k]!, source: k };
    if (heartbeat !== false) items = filterHeartbeatArtifacts(items, heartbeat ?? {}, log);
    let next: { at: number; outLength: number; inserted: number; answered: number } | undefined;
    if (repair) {
      const filtered = items;
      items = repairToolResultPairing(filtered, log, inserted, {
        answered,
        onVisit: (index, outLength) => {
          const item = filtered[index]!;
          if (item.source > base && isBoundary(item.message)) {
            next = { at: item.source, outLength, inserted: inserted.length, answered: answered.count };
          }
        },
      });
    } else {
      // without the repair, every surviving boundary message is a scan start
      for (let i = items.length - 1; i >= 0; i--) {
        const item = items[i]!;
        if (item.source > base && isBoundary(item.message)) {
          next = { at: item.source, outLength: i, inserted: 0, answered: 0 };
          break;
        }
      }
    }

    const byIndex: (HistoryRemoval | undefined)[] = new Array(messages.length - base);
    for (const removal of log.removed) byIndex[removal.index - base] = removal;
    const removedTail = byIndex.filter((r): r is HistoryRemoval => r !== undefined);
    const outTail = items.map((item) => item.message);
    const result: HistoryPipelineResult = {
      messages: checkpoint.messages.concat(outTail),
      removed: checkpoint.removed.concat(removedTail),
      inserted: checkpoint.inserted.concat(inserted),
    };

    if (next) {
      const moved = next;
      for (let i = 0; i < moved.outLength; i++) checkpoint.messages.push(outTail[i]!);
      for (const removal of removedTail) {
        if (removal.index >= moved.at) break;
        checkpoint.removed.push(removal);
      }
      for (let i = 0; i < moved.inserted; i++) checkpoint.inserted.push(inserted[i]!);
      checkpoint.at = moved.at;
      checkpoint.answeredCount = moved.answered;
    }
    previous = messages.slice();
    return result;
  };
}

/**
 * The turns of a replay in the order lanes finished them, paged for clients that read a long replay as it runs:
 * each page holds whole turns and the messages they are the first to reference, and stays under a byte budget
 * (a single turn larger than the budget still travels, alone). Read from cursor 0 onwards, the pages together
 * carry every turn and every message those turns reference, each message once. A turn's `assembled` and
 * `asSent.messages` travel as deltas against the same lane's previous turn in the log (`src/view/listDelta.ts`;
 * `decodeLaneTurns` gives them back), so a long context does not travel again with every turn.
 */
import type { MessageRecord, Recording, TurnRecord } from '../../contract/recording';
import { encodeTurnRecord, type EncodedTurnRecord } from '../../view/listDelta';
import { referencedKeys } from '../recording/sliceRecording';

export interface TurnPage {
  turns: EncodedTurnRecord[];
  messages: Record<string, MessageRecord>;
  /** the cursor of the next page */
  next: number;
  /** JSON bytes of the turns and messages */
  bytes: number;
}

interface LoggedTurn {
  record: TurnRecord;
  /** the same lane's previous turn in the log (what the record is encoded against) */
  previous: TurnRecord | undefined;
  /** keys no earlier turn of the log references */
  newKeys: string[];
}

export class TurnLog {
  private readonly entries: LoggedTurn[] = [];
  private readonly seen = new Set<string>();
  private readonly lastOfLane = new Map<string, TurnRecord>();

  get length(): number {
    return this.entries.length;
  }

  push(record: TurnRecord): void {
    const newKeys = [...referencedKeys([record])].filter((key) => !this.seen.has(key));
    for (const key of newKeys) this.seen.add(key);
    this.entries.push({ record, previous: this.lastOfLane.get(record.lane), newKeys });
    this.lastOfLane.set(record.lane, record);
  }

  /**
   * `withAsSent: false` leaves `asSent` out (live pages: it is attached to records in place when a partial
   * recording is made, so a client may have a lane's previous turn without it). `maxTurns` caps the page's turns.
   */
  page(
    cursor: number,
    maxBytes: number,
    message: (key: string) => MessageRecord | undefined,
    { withAsSent = true, maxTurns = Infinity }: { withAsSent?: boolean; maxTurns?: number } = {},
  ): TurnPage {
    const page: TurnPage = { turns: [], messages: {}, next: cursor, bytes: 0 };
    const end = Math.min(this.entries.length, cursor + maxTurns);
    for (let i = cursor; i < end; i++) {
      const { record, previous, newKeys } = this.entries[i]!;
      const encoded = withAsSent
        ? encodeTurnRecord(record, previous)
        : encodeTurnRecord(withoutAsSent(record), previous);
      const messages: [string, MessageRecord][] = [];
      for (const key of newKeys) {
        const found = message(key);
        if (found) messages.push([key, found]);
      }
      const bytes = Buffer.byteLength(JSON.stringify(encoded)) + Buffer.byteLength(JSON.stringify(messages));
      if (page.turns.length > 0 && page.bytes + bytes > maxBytes) break;
      page.turns.push(encoded);
      for (const [key, found] of messages) page.messages[key] = found;
      page.bytes += bytes;
      page.next = i + 1;
    }
    return page;
  }
}

function withoutAsSent(record: TurnRecord): TurnRecord {
  if (!record.asSent) return record;
  const { asSent: _asSent, ...rest } = record;
  return rest;
}

/** A finished Recording's turns as a log (lane by lane, in the Recording's order). */
export function turnLogOf(recording: Recording): TurnLog {
  const log = new TurnLog();
  for (const lane of recording.lanes) for (const record of recording.turns[lane.id] ?? []) log.push(record);
  return log;
}

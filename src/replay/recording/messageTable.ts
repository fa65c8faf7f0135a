/**
 * The recording's message table: every distinct message stored once under its identity key, with its token
 * counts computed once: OpenClaw's compaction estimate and the precheck per-message estimate at once, the exact
 * tiktoken count on the background counter (queued when the message is first seen, awaited with
 * `ensureCounted` where a turn needs it). Turns reference keys, so a 1,000-turn recording holds each message's
 * content a single time.
 */
import type { AgentMessage } from '../../contract';
import {
  estimateMessageTokensBy,
  estimatePrecheckMessageTokens,
  messageTokenText,
  TOKENIZER_IMAGE_TOKENS,
  type CjkCounting,
  type MessageEstimator,
} from '../../tokens';
import type { BackgroundTokenCounter } from './backgroundTokenCounter';
import type { IndexRange, MessageRecord } from '../../contract/recording';

export interface StoredMessage {
  key: string;
  message: AgentMessage;
  estTokens: number;
  /** exact count; -1 until `ensureCounted` has resolved for this message */
  tiktokenTokens: number;
  /** precheck estimate before the 1.2 margin (summed per turn, margin applied once) */
  precheckTokens: number;
  /** the text the tokenizer counts, and the images charged on top */
  tokenText: string;
  images: number;
  entryId?: string;
  covers?: { sessionId: string; ranges: IndexRange[] };
}

export class MessageTable {
  private readonly byKey = new Map<string, StoredMessage>();
  private cacheHits = 0;

  constructor(
    private readonly counter: BackgroundTokenCounter,
    /** the release's compaction estimator (`estTokens`; src/tokens/estimateMessageTokens.ts) */
    private readonly estimator: MessageEstimator = 'weighted',
    /** the release's CJK counting under the precheck's per-message estimate */
    private readonly cjkCounting: CjkCounting = 'tiered',
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): StoredMessage | undefined {
    return this.byKey.get(key);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** Store `message` under `key` unless the key is known; returns the stored record (counted once). */
  intern(key: string, message: AgentMessage, entryId?: string): StoredMessage {
    const existing = this.byKey.get(key);
    if (existing) return existing;
    const { text, images } = messageTokenText(message);
    const stored: StoredMessage = {
      key,
      message,
      estTokens: estimateMessageTokensBy(message, this.estimator),
      tiktokenTokens: -1,
      precheckTokens: estimatePrecheckMessageTokens(message, this.cjkCounting),
      tokenText: text,
      images,
    };
    if (entryId !== undefined) stored.entryId = entryId;
    this.byKey.set(key, stored);
    this.counter.queue(text);
    return stored;
  }

  /** Send the queued texts to the tokenizer now (after a burst of interning). */
  flushQueued(): void {
    this.counter.flushQueued();
  }

  /** Resolves when every given message has its exact count. */
  async ensureCounted(messages: readonly StoredMessage[]): Promise<void> {
    const missing = messages.filter((m) => m.tiktokenTokens < 0);
    this.cacheHits += messages.length - missing.length;
    if (missing.length === 0) return;
    await this.counter.ensure(missing.map((m) => m.tokenText));
    for (const m of missing) m.tiktokenTokens = this.counter.peek(m.tokenText)! + m.images * TOKENIZER_IMAGE_TOKENS;
  }

  /** Every message counted (before the table is exported). */
  async ensureAll(): Promise<void> {
    await this.ensureCounted([...this.byKey.values()]);
  }

  /** Lookups answered from known counts, texts counted, and the characters the tokenizer ran on. */
  stats(): { hits: number; misses: number; charsTokenized: number } {
    const counter = this.counter.stats();
    return { hits: this.cacheHits, misses: counter.misses, charsTokenized: counter.charsTokenized };
  }

  /** Record what a summary covers (first writer wins: a key's content never changes). */
  setCovers(key: string, sessionId: string, ranges: IndexRange[]): void {
    const stored = this.byKey.get(key);
    if (stored && stored.covers === undefined && ranges.length > 0) stored.covers = { sessionId, ranges };
  }

  /**
   * The table as the Recording stores it (call `ensureAll` first): the keys of `sessionOrders` (each session's
   * message order) first, then the rest sorted — lanes add messages concurrently, so insertion order is timing.
   */
  toRecord(sessionOrders: readonly (readonly string[])[] = []): Record<string, MessageRecord> {
    const ordered = new Set<string>();
    for (const keys of sessionOrders) for (const key of keys) if (this.byKey.has(key)) ordered.add(key);
    const rest = [...this.byKey.keys()].filter((key) => !ordered.has(key)).sort();
    const out: Record<string, MessageRecord> = {};
    for (const key of [...ordered, ...rest]) out[key] = this.recordOf(key)!;
    return out;
  }

  /** One message as the Recording stores it (its exact count is 0 while not yet counted). */
  recordOf(key: string): MessageRecord | undefined {
    const stored = this.byKey.get(key);
    if (!stored) return undefined;
    const record: MessageRecord = {
      role: stored.message.role,
      message: stored.message as unknown as MessageRecord['message'],
      estTokens: stored.estTokens,
      tiktokenTokens: Math.max(0, stored.tiktokenTokens),
    };
    if (stored.entryId !== undefined) record.entryId = stored.entryId;
    if (stored.covers !== undefined) record.covers = stored.covers;
    return record;
  }
}

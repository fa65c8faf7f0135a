/**
 * Exact token counts computed on a worker thread while the replay runs on the main thread. Tokenizing every
 * distinct message once is the largest fixed cost of a replay; the session's messages are queued in session order
 * up front, the worker stays ahead of the turns, and a turn only waits when it needs a count not yet delivered.
 * Each distinct text is counted once (cached by the text itself). The worker counts exactly as `src/tokens`
 * `countTokens` does: the text is cut into pieces at pre-token boundaries (`splitForTokenizer`, so long runs stay
 * linear) and tiktoken's `encode_ordinary` counts are summed; when a worker cannot start, counting falls back to
 * `countTokens` on the main thread, with the same results.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { countTokens, splitForTokenizer, type TokenEncoding } from '../tokens';

/** The worker: loads tiktoken from the path the parent resolved, answers `{id, counts}` per batch. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { get_encoding } = require(workerData.tiktokenPath);
const encoders = new Map();
parentPort.on('message', ({ id, encoding, pieces }) => {
  try {
    let encoder = encoders.get(encoding);
    if (!encoder) { encoder = get_encoding(encoding); encoders.set(encoding, encoder); }
    const counts = pieces.map((parts) => {
      let n = 0;
      for (const part of parts) if (part.length > 0) n += encoder.encode_ordinary(part).length;
      return n;
    });
    parentPort.postMessage({ id, counts });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error && error.message || error) });
  }
});
`;

/** Batches stay small so a text a turn waits for is never queued behind much else. */
const BATCH_CHARS = 64 * 1024;
/** Batches in flight at once; the rest of the backlog waits here, so urgent texts can go first. */
const MAX_IN_FLIGHT = 2;

interface Batch {
  id: number;
  texts: string[];
  done: Promise<void>;
  resolve: () => void;
}

export class BackgroundTokenCounter {
  private readonly counts = new Map<string, number>();
  /** texts sent to the worker → their batch */
  private readonly inFlight = new Map<string, Batch>();
  private readonly batches = new Map<number, Batch>();
  /** texts queued for later (prefetch order); may hold texts counted meanwhile, skipped when sent */
  private backlog: string[] = [];
  private backlogAt = 0;
  /** texts a caller is waiting for: sent before the backlog */
  private urgent: string[] = [];
  private nextId = 0;
  private worker: Worker | undefined;
  private misses = 0;

  constructor(
    private readonly encoding: TokenEncoding,
    options: { useWorker?: boolean } = {},
  ) {
    if (options.useWorker === false) return;
    try {
      const tiktokenPath = createRequire(import.meta.url).resolve('tiktoken');
      this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { tiktokenPath } });
      this.worker.unref();
      this.worker.on('message', (message: { id: number; counts?: number[]; error?: string }) => this.onResult(message));
      this.worker.on('error', (error) => this.failAll(error));
    } catch {
      this.worker = undefined;
    }
  }

  private onResult(message: { id: number; counts?: number[]; error?: string }): void {
    const batch = this.batches.get(message.id);
    if (!batch) return;
    this.batches.delete(message.id);
    if (message.error !== undefined || !message.counts) {
      // count this batch here instead (same function, same results)
      for (const text of batch.texts) this.store(text, countTokens(text, this.encoding));
    } else {
      batch.texts.forEach((text, i) => this.store(text, message.counts![i]));
    }
    batch.resolve();
    this.pump();
  }

  private failAll(_error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    for (const batch of [...this.batches.values()]) {
      for (const text of batch.texts) this.store(text, countTokens(text, this.encoding));
      batch.resolve();
    }
    this.batches.clear();
  }

  private store(text: string, count: number): void {
    if (!this.counts.has(text)) this.misses++;
    this.counts.set(text, count);
    this.inFlight.delete(text);
  }

  private takeBatch(): string[] {
    const texts: string[] = [];
    let chars = 0;
    const take = (text: string) => {
      if (this.counts.has(text) || this.inFlight.has(text) || texts.includes(text)) return;
      texts.push(text);
      chars += text.length;
    };
    while (this.urgent.length > 0 && chars < BATCH_CHARS) take(this.urgent.shift()!);
    while (this.backlogAt < this.backlog.length && chars < BATCH_CHARS) take(this.backlog[this.backlogAt++]);
    if (this.backlogAt >= this.backlog.length && this.backlogAt > 0) {
      this.backlog = [];
      this.backlogAt = 0;
    }
    return texts;
  }

  private send(texts: string[]): Batch {
    let resolve!: () => void;
    const done = new Promise<void>((res) => {
      resolve = res;
    });
    const batch: Batch = { id: this.nextId++, texts, done, resolve };
    this.batches.set(batch.id, batch);
    for (const text of texts) this.inFlight.set(text, batch);
    if (this.worker) {
      const pieces = texts.map((text) => splitForTokenizer(text).pieces);
      this.worker.postMessage({ id: batch.id, encoding: this.encoding, pieces });
    }
    else this.onResult({ id: batch.id, counts: texts.map((t) => countTokens(t, this.encoding)) });
    return batch;
  }

  /** Keep up to MAX_IN_FLIGHT batches with the worker (urgent texts first). */
  private pump(force = false): void {
    while (this.batches.size < MAX_IN_FLIGHT || (force && this.urgent.length > 0)) {
      const texts = this.takeBatch();
      if (texts.length === 0) return;
      this.send(texts);
      force = false;
    }
  }

  /** Queue a text for counting in the background (in order, behind texts queued before it). */
  queue(text: string): void {
    if (text.length === 0 || this.counts.has(text)) return;
    this.backlog.push(text);
  }

  /** Start counting what is queued. */
  flushQueued(): void {
    this.pump();
  }

  /** The count when it is known. */
  peek(text: string): number | undefined {
    return this.counts.get(text);
  }

  /** Resolves when every text has a count (those not yet sent go ahead of the backlog). */
  async ensure(input: Iterable<string>): Promise<void> {
    const texts = [...input];
    const waits = new Set<Promise<void>>();
    let added = false;
    for (const text of texts) {
      if (this.counts.has(text)) continue;
      if (text.length === 0) {
        this.store(text, 0);
        continue;
      }
      const batch = this.inFlight.get(text);
      if (batch) waits.add(batch.done);
      else {
        this.urgent.push(text);
        added = true;
      }
    }
    if (added) {
      this.pump(true);
      for (const text of texts) {
        const batch = this.inFlight.get(text);
        if (batch) waits.add(batch.done);
      }
    }
    for (const wait of waits) await wait;
    // urgent texts that did not fit in the forced batch are sent as batches complete
    for (const text of texts) if (!this.counts.has(text)) return this.ensure(texts);
  }

  /** The count of `text`, waiting for the worker when needed. */
  async count(text: string): Promise<number> {
    if (!this.counts.has(text)) await this.ensure([text]);
    return this.counts.get(text)!;
  }

  /** texts the tokenizer ran on, and distinct texts known */
  stats(): { misses: number; uniqueTexts: number } {
    return { misses: this.misses, uniqueTexts: this.counts.size };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

/**
 * Exact token counts computed on a worker thread while the replay runs on the main thread. Tokenizing the
 * session's text is the largest fixed cost of a replay; the session's messages are queued in session order up
 * front and the worker works through them ahead of the turns. New text a turn needs (a compaction summary) goes
 * to the worker ahead of anything else when the backlog is done; while the worker is still behind, the main
 * thread counts such lines itself instead of queueing them behind the backlog.
 *
 * What is counted is a text's LINES (`splitAtLineStarts`: cuts where both tokenizers always start a new
 * pre-token, so a text's count is the sum of its lines' counts), each distinct line once. A compaction summary
 * that repeats most of the previous one, or a file read twice, costs only its new lines. Each line is cut into
 * `splitForTokenizer` pieces (long runs stay linear) and tiktoken's `encode_ordinary` counts are summed, so a
 * text's count is exactly `countTokens(text)` from `src/tokens`; when a worker cannot start, lines are counted
 * with `countTokens` on the main thread, with the same results.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { countTokens, splitAtLineStarts, splitForTokenizer, type TokenEncoding } from '../../tokens';

/** The worker: loads tiktoken from the path the parent resolved, answers `{id, counts}` per batch of lines. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { get_encoding } = require(workerData.tiktokenPath);
const encoders = new Map();
const encoderFor = (encoding) => {
  let encoder = encoders.get(encoding);
  if (!encoder) { encoder = get_encoding(encoding); encoders.set(encoding, encoder); }
  return encoder;
};
parentPort.on('message', ({ id, encoding, pieces, warm }) => {
  if (warm) { try { encoderFor(warm); } catch {} return; }
  try {
    const encoder = encoderFor(encoding);
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

/** Batches stay small so a turn never waits long for a line in the worker's hands. */
const BATCH_CHARS = 64 * 1024;
/** Batches in flight at once; the rest of the backlog waits here, where the main thread can take lines from. */
const MAX_IN_FLIGHT = 2;

function startTokenWorker(): Worker {
  const tiktokenPath = createRequire(import.meta.url).resolve('tiktoken');
  return new Worker(WORKER_SOURCE, { eval: true, workerData: { tiktokenPath } });
}

/** A worker started ahead of a replay, with an encoding loaded; the next counter takes it. */
let spareWorker: Worker | undefined;
const forgetSpare = () => {
  spareWorker = undefined;
};

/**
 * Start a tokenizer worker now, for the next replay of this process to take: starting one and loading tiktoken's
 * encoding is most of what a replay waits for before its first turn (the app calls this while the user picks a
 * session). One spare at most; it does not keep the process alive.
 */
export function prestartTokenWorker(encoding: TokenEncoding): void {
  if (spareWorker) return;
  try {
    const worker = startTokenWorker();
    worker.unref();
    worker.once('error', forgetSpare);
    worker.postMessage({ warm: encoding });
    spareWorker = worker;
  } catch {
    // the next counter starts its own (or counts on the main thread)
  }
}

/** Whether a prestarted worker waits for the next counter. */
export function hasSpareTokenWorker(): boolean {
  return spareWorker !== undefined;
}

function takeSpareWorker(): Worker | undefined {
  const worker = spareWorker;
  spareWorker = undefined;
  worker?.off('error', forgetSpare);
  return worker;
}

interface Batch {
  id: number;
  lines: string[];
  done: Promise<void>;
  resolve: () => void;
}

export interface BackgroundTokenCounterStats {
  /** distinct texts counted */
  misses: number;
  /** distinct texts known */
  uniqueTexts: number;
  /** distinct lines the tokenizer ran on, and their characters */
  linesTokenized: number;
  charsTokenized: number;
}

export class BackgroundTokenCounter {
  private readonly textCounts = new Map<string, number>();
  /** texts whose lines are not all counted yet → their lines */
  private readonly pendingTexts = new Map<string, string[]>();
  private readonly lineCounts = new Map<string, number>();
  /** lines sent to the worker → their batch */
  private readonly inFlight = new Map<string, Batch>();
  private readonly batches = new Map<number, Batch>();
  /** lines queued for later (prefetch order); may hold lines counted meanwhile, skipped when sent */
  private backlog: string[] = [];
  private backlogAt = 0;
  private nextId = 0;
  private worker: Worker | undefined;
  private charsTokenized = 0;

  constructor(
    private readonly encoding: TokenEncoding,
    options: { useWorker?: boolean } = {},
  ) {
    if (options.useWorker === false) return;
    try {
      this.worker = takeSpareWorker() ?? startTokenWorker();
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
      for (const line of batch.lines) this.storeLine(line, countTokens(line, this.encoding));
    } else {
      batch.lines.forEach((line, i) => this.storeLine(line, message.counts![i]));
    }
    batch.resolve();
    this.pump();
  }

  private failAll(_error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    void worker?.terminate();
    for (const batch of [...this.batches.values()]) {
      for (const line of batch.lines) this.storeLine(line, countTokens(line, this.encoding));
      batch.resolve();
    }
    this.batches.clear();
  }

  private storeLine(line: string, count: number): void {
    if (!this.lineCounts.has(line)) this.charsTokenized += line.length;
    this.lineCounts.set(line, count);
    this.inFlight.delete(line);
  }

  private needsCounting(line: string): boolean {
    return !this.lineCounts.has(line) && !this.inFlight.has(line);
  }

  private takeBatch(): string[] {
    const lines: string[] = [];
    const taken = new Set<string>();
    let chars = 0;
    const take = (line: string) => {
      if (!this.needsCounting(line) || taken.has(line)) return;
      taken.add(line);
      lines.push(line);
      chars += line.length;
    };
    while (this.backlogAt < this.backlog.length && chars < BATCH_CHARS) take(this.backlog[this.backlogAt++]);
    if (this.backlogAt >= this.backlog.length && this.backlogAt > 0) {
      this.backlog = [];
      this.backlogAt = 0;
    }
    return lines;
  }

  private send(lines: string[]): Batch {
    let resolve!: () => void;
    const done = new Promise<void>((res) => {
      resolve = res;
    });
    const batch: Batch = { id: this.nextId++, lines, done, resolve };
    this.batches.set(batch.id, batch);
    for (const line of lines) this.inFlight.set(line, batch);
    if (this.worker) {
      const pieces = lines.map((line) => splitForTokenizer(line).pieces);
      this.worker.postMessage({ id: batch.id, encoding: this.encoding, pieces });
    } else this.onResult({ id: batch.id, counts: lines.map((line) => countTokens(line, this.encoding)) });
    return batch;
  }

  /** Keep up to MAX_IN_FLIGHT batches with the worker. */
  private pump(): void {
    while (this.batches.size < MAX_IN_FLIGHT) {
      const lines = this.takeBatch();
      if (lines.length === 0) return;
      this.send(lines);
    }
  }

  /** The lines of a text not counted yet (registering the text); undefined when the text's count is known. */
  private linesOf(text: string): string[] | undefined {
    if (this.textCounts.has(text)) return undefined;
    let lines = this.pendingTexts.get(text);
    if (!lines) {
      lines = splitAtLineStarts(text);
      this.pendingTexts.set(text, lines);
    }
    return lines;
  }

  /** The text's count once all its lines are counted (stored on first success). */
  private settle(text: string): number | undefined {
    const known = this.textCounts.get(text);
    if (known !== undefined) return known;
    const lines = this.pendingTexts.get(text);
    if (!lines) return undefined;
    let total = 0;
    for (const line of lines) {
      const count = this.lineCounts.get(line);
      if (count === undefined) return undefined;
      total += count;
    }
    this.pendingTexts.delete(text);
    this.textCounts.set(text, total);
    return total;
  }

  /** Queue a text for counting in the background (in order, behind texts queued before it). */
  queue(text: string): void {
    if (text.length === 0) return;
    const lines = this.linesOf(text);
    if (lines) for (const line of lines) if (this.needsCounting(line)) this.backlog.push(line);
  }

  /** Start counting what is queued. */
  flushQueued(): void {
    this.pump();
  }

  /** The count when it is known. */
  peek(text: string): number | undefined {
    if (text.length === 0) return 0;
    return this.settle(text);
  }

  /**
   * Resolves when every text has a count. Lines nobody is counting yet go to the worker when it has nothing
   * queued (this thread can run other lanes meanwhile); when the worker is still busy with the backlog, this
   * thread counts them itself rather than wait behind it.
   */
  async ensure(input: Iterable<string>): Promise<void> {
    const texts = [...input].filter((text) => text.length > 0 && this.settle(text) === undefined);
    const missing = new Set<string>();
    for (const text of texts)
      for (const line of this.linesOf(text) ?? []) if (this.needsCounting(line)) missing.add(line);
    if (missing.size > 0) {
      if (this.worker && this.backlogAt >= this.backlog.length) this.send([...missing]);
      else for (const line of missing) this.storeLine(line, countTokens(line, this.encoding));
    }
    const waits = new Set<Promise<void>>();
    for (const text of texts) {
      for (const line of this.pendingTexts.get(text) ?? []) {
        const batch = this.inFlight.get(line);
        if (batch) waits.add(batch.done);
      }
    }
    for (const wait of waits) await wait;
    for (const text of texts) this.settle(text);
  }

  /** The count of `text`, waiting for the worker when needed. */
  async count(text: string): Promise<number> {
    if (this.peek(text) === undefined) await this.ensure([text]);
    return this.peek(text)!;
  }

  stats(): BackgroundTokenCounterStats {
    return {
      misses: this.textCounts.size,
      uniqueTexts: this.textCounts.size + this.pendingTexts.size,
      linesTokenized: this.lineCounts.size,
      charsTokenized: this.charsTokenized,
    };
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }
}

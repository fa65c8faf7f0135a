/**
 * Streams a file as physical lines without ever holding the whole file in memory: chunks from
 * `fs.createReadStream`, decoded with a StringDecoder (so multi-byte characters split across chunks survive),
 * split on "\n". A line longer than a chunk is assembled from its pieces.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

export interface ReadProgress {
  bytesRead: number;
  totalBytes: number;
  /** physical lines completed so far */
  lines: number;
}

export interface ReadLinesOptions {
  /** called at most about every `progressStepBytes` bytes, and once at the end */
  onProgress?: (progress: ReadProgress) => void;
  /** default: max(1 MiB, totalBytes / 100) */
  progressStepBytes?: number;
  /** read chunk size, default 1 MiB */
  chunkBytes?: number;
}

/** Calls `onLine(text, lineNumber)` for every physical line (1-based); a final line without "\n" counts too. */
export async function readLines(
  path: string,
  onLine: (text: string, lineNumber: number) => void,
  options: ReadLinesOptions = {},
): Promise<ReadProgress> {
  const totalBytes = (await stat(path)).size;
  const step = options.progressStepBytes ?? Math.max(1 << 20, Math.floor(totalBytes / 100));
  const decoder = new StringDecoder('utf8');
  const stream = createReadStream(path, { highWaterMark: options.chunkBytes ?? 1 << 20 });
  let bytesRead = 0;
  let lines = 0;
  let lastReported = 0;
  let pending: string[] = [];

  const consume = (text: string) => {
    let start = 0;
    let newline = text.indexOf('\n', start);
    while (newline !== -1) {
      let line = text.slice(start, newline);
      if (pending.length > 0) {
        pending.push(line);
        line = pending.join('');
        pending = [];
      }
      lines += 1;
      onLine(line, lines);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    if (start < text.length) pending.push(text.slice(start));
  };

  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytesRead += chunk.length;
      consume(decoder.write(chunk));
      if (options.onProgress && bytesRead - lastReported >= step && bytesRead < totalBytes) {
        lastReported = bytesRead;
        options.onProgress({ bytesRead, totalBytes, lines });
      }
    }
  } finally {
    stream.destroy();
  }
  consume(decoder.end());
  if (pending.length > 0) {
    lines += 1;
    onLine(pending.join(''), lines);
    pending = [];
  }
  const done = { bytesRead, totalBytes: Math.max(totalBytes, bytesRead), lines };
  options.onProgress?.(done);
  return done;
}

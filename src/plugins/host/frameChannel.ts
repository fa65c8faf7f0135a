/**
 * The engine-host channel of `child_process` hosts: one JSON text per line on an extra stdio pipe (fd 3), in both
 * directions. Node's own IPC channel parses every message before anyone sees it, so an engine host answering with
 * 50 MB would be parsed (and held) in full by the app; here the app counts a message's bytes as they arrive and
 * drops one past its cap without buffering it, then reports its size (`onOversized`). JSON text never holds a raw
 * newline (JSON.stringify escapes them in strings), so a newline ends a message.
 */

/** The argument that tells the engine host its channel is fd 3 (else it uses `process.send`, see engineHostMain). */
export const FRAME_CHANNEL_FLAG = '--contextscope-channel=fd3';
export const FRAME_CHANNEL_FD = 3;

const NEWLINE = 0x0a;

export class FrameReader {
  private chunks: Buffer[] = [];
  /** bytes of the message being read, counted also while it is dropped */
  private bytes = 0;
  private dropping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onFrame: (text: string) => void,
    private readonly onOversized: (bytes: number) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      this.bytes += end - start;
      if (!this.dropping && this.bytes > this.maxBytes) {
        this.dropping = true;
        this.chunks = [];
      }
      if (!this.dropping && end > start) this.chunks.push(chunk.subarray(start, end));
      if (newline < 0) return;
      this.finish();
      start = newline + 1;
    }
  }

  private finish(): void {
    const { chunks, bytes, dropping } = this;
    this.chunks = [];
    this.bytes = 0;
    this.dropping = false;
    if (dropping) this.onOversized(bytes);
    else if (bytes > 0) this.onFrame((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8'));
  }
}

/** One message as a line of the channel. */
export function frameOf(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/** `52.4 MB` (MiB, one decimal below 100, whole above). */
export function formatMegabytes(bytes: number): string {
  const value = bytes / (1 << 20);
  return `${value < 100 ? Number(value.toFixed(1)) : Math.round(value)} MB`;
}

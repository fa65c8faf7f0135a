/** An engine host's stdout/stderr as log lines (bounded), and the tail of its stderr for start and exit reports. */

/** a line the host wrote (a PluginLogEntry of level stdout/stderr) */
export interface OutputLine {
  level: 'stdout' | 'stderr';
  message: string;
  at: number;
}

const STDERR_TAIL = 4000;
const MAX_PARTIAL_LINE = 64_000;

export class HostOutput {
  private tail = '';
  private readonly partialLines = { stdout: '', stderr: '' };

  constructor(private readonly onLog: ((line: OutputLine) => void) | undefined) {}

  /** the last characters the host wrote to stderr */
  get stderrTail(): string {
    return this.tail;
  }

  write(stream: 'stdout' | 'stderr', text: string): void {
    if (stream === 'stderr') this.tail = (this.tail + text).slice(-STDERR_TAIL);
    const lines = (this.partialLines[stream] + text).split('\n');
    let rest = lines.pop() ?? '';
    // output without newlines must not grow without bound
    if (rest.length > MAX_PARTIAL_LINE) {
      lines.push(rest);
      rest = '';
    }
    this.partialLines[stream] = rest;
    for (const line of lines) this.onLog?.({ level: stream, message: line, at: Date.now() });
  }

  /** logs what is left of unfinished lines (the host exited) */
  flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partialLines[stream])
        this.onLog?.({ level: stream, message: this.partialLines[stream], at: Date.now() });
      this.partialLines[stream] = '';
    }
  }
}

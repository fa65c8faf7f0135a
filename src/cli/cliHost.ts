/** What the CLI needs from the shell that runs it (main/cli.ts provides it). */
export interface ServeRequest {
  /** 0 = a random free port. */
  port: number;
  /** Open the system browser on the URL. */
  open: boolean;
}

export interface ServeSession {
  /** URL to open, including the per-launch token. */
  url: string;
  close(): Promise<void>;
}

export interface CliHost {
  /** Starts browser mode (HTTP + WebSocket bridge on 127.0.0.1). */
  startServe(request: ServeRequest): Promise<ServeSession>;
  /** Resolves when the user asks the process to stop (Ctrl+C / SIGTERM). */
  waitForStop(): Promise<void>;
  /** Normal output (default: process.stdout). */
  out(text: string): void;
  /** Diagnostics (default: process.stderr). */
  err(text: string): void;
  /**
   * Aborts when the output went away (stdout's reader closed the pipe: `… | head -1`); commands stop their work on
   * it. runCli sets it (src/cli/cliOutput.ts); a host built for a test may leave it out.
   */
  outputClosed?: AbortSignal;
}

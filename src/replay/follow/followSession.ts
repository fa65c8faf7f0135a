/**
 * Live mode: follow a session while OpenClaw writes it — lines appended to a JSONL transcript, or new events in the
 * agent's SQLite database (its -wal included) — and replay it again through the same lanes whenever it changed, so
 * each new turn shows up as it arrives. Each pass replays the whole session (a replay is deterministic: the earlier
 * turns come out the same); the cost of a pass grows with the session, not with how long it has been followed.
 */
import { statSync } from 'node:fs';
import type { Recording } from '../../contract/recording';
import type { LoadedSession } from '../../transcripts';
import type { ReplayOptions } from '../lane/replayTypes';
import { replaySession } from '../replaySession';
import { openReplaySession } from '../session/resolveSessionInput';

export type FollowInput = string | { stateDir?: string; session: string; agentId?: string };

export interface FollowSessionOptions {
  input: FollowInput;
  replay: Omit<ReplayOptions, 'session' | 'signal'>;
  /** how often the source files are checked (default 500 ms) */
  intervalMs?: number;
  signal: AbortSignal;
  /** after each pass: the recording of the session as it stands */
  onRecording(recording: Recording, pass: number): void;
  /** a pass that failed (the session could not be read mid-write, …); following goes on */
  onError?(error: unknown): void;
}

/** The files whose size and mtime change when the session does. */
function sourceFiles(loaded: LoadedSession): string[] {
  if (loaded.storage?.kind === 'sqlite') return [loaded.storage.database, `${loaded.storage.database}-wal`];
  return loaded.path ? [loaded.path] : [];
}

/** Size and mtime of each source file ('-' for a missing one): equal stamps = nothing was written. */
export function sourceStamp(files: readonly string[]): string {
  return files
    .map((file) => {
      try {
        const stat = statSync(file);
        return `${stat.size}:${stat.mtimeMs}`;
      } catch {
        return '-';
      }
    })
    .join('|');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Follows until `signal` aborts; resolves with the last recording (undefined when no pass finished). */
export async function followSession(options: FollowSessionOptions): Promise<Recording | undefined> {
  const interval = options.intervalMs ?? 500;
  let last: Recording | undefined;
  let stamp: string | undefined;
  let files: string[] = [];
  let pass = 0;
  while (!options.signal.aborted) {
    const now = files.length > 0 ? sourceStamp(files) : undefined;
    if (now === undefined || now !== stamp) {
      try {
        const { loaded } = await openReplaySession(options.input);
        files = sourceFiles(loaded);
        // stamped as it was before reading: a write during the pass shows as a change next time
        stamp = now ?? sourceStamp(files);
        const recording = await replaySession({ ...options.replay, session: loaded, signal: options.signal });
        last = recording;
        options.onRecording(recording, ++pass);
      } catch (error) {
        if (options.signal.aborted) break;
        options.onError?.(error);
      }
    }
    await sleep(interval, options.signal);
  }
  return last;
}

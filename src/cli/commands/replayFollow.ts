/**
 * `contextscope replay --follow`: live mode in the terminal. Follows the session while OpenClaw writes it and prints
 * one line per lane for every turn that arrives (tokens against the budget, status, events); Ctrl+C stops and
 * writes --json/--html from the last pass.
 */
import { resolve } from 'node:path';
import { writeFileAtomic } from '../../common/writeFileAtomic';
import {
  writeRecordingFile,
  followSession,
  laneTurnCell,
  renderHtmlReport,
  type FollowInput,
  type Recording,
} from '../../replay';
import { errorMessage } from '../../common/errorText';
import type { CliHost } from '../cliHost';

/** Lines for the root lanes' turns from `fromTurn` on (1-based turn numbers, as the app shows them). */
export function describeNewTurns(recording: Recording, fromTurn: number): string[] {
  const lines: string[] = [];
  const roots = recording.lanes.filter((lane) => !lane.parentLane);
  const turns = recording.session.turnStarts.length;
  for (let turn = fromTurn; turn < turns; turn++) {
    for (const lane of roots) {
      const record = recording.turns[lane.id]?.find((t) => t.turn === turn);
      if (!record) continue;
      const cell = laneTurnCell(record);
      const extra = [cell.status === 'ok' ? '' : cell.status, ...cell.events].filter(Boolean).join('; ');
      lines.push(
        `turn ${turn + 1}  ${lane.label}  ${cell.tiktokenTokens}/${cell.tokenBudget} tokens  ` +
          `kept ${cell.kept} · summarized ${cell.summarized} · dropped ${cell.dropped}${extra ? `  ${extra}` : ''}`,
      );
    }
  }
  return lines;
}

export interface FollowCliOptions {
  json?: string;
  html?: string;
  intervalMs?: number;
}

/** Follows until `signal` aborts (Ctrl+C in the command); returns the last recording. */
export async function followFromCli(
  input: FollowInput,
  replay: Parameters<typeof followSession>[0]['replay'],
  options: FollowCliOptions,
  host: CliHost,
  signal: AbortSignal,
): Promise<Recording | undefined> {
  let shown = 0;
  host.err('following the session: new turns are replayed as they arrive (Ctrl+C to stop)\n');
  const last = await followSession({
    input,
    replay,
    signal,
    ...(options.intervalMs !== undefined ? { intervalMs: options.intervalMs } : {}),
    onRecording: (recording) => {
      for (const line of describeNewTurns(recording, shown)) host.out(`${line}\n`);
      shown = recording.session.turnStarts.length;
    },
    onError: (error) =>
      host.err(`could not replay the session this time (retrying on the next change): ${errorMessage(error)}\n`),
  });
  if (last && options.json) writeRecordingFile(resolve(options.json), last);
  if (last && options.html) writeFileAtomic(resolve(options.html), renderHtmlReport(last), { mode: 0o644 });
  return last;
}

/**
 * `<stateDir>/subagents/runs.json`: OpenClaw's subagent registry before the SQLite state database (2026.7.x; 2026.8+
 * keeps it in `subagent_runs` and does not import the file). Shape, as OpenClaw 2026.7.35 reads it:
 * `{version: 1 | 2, runs: {<runId>: {runId, childSessionKey, requesterSessionKey, controllerSessionKey?, task?,
 * label?, spawnMode?, createdAt?, startedAt?, endedAt?, outcome?, cleanup?, …}}}`; a run without a run id, child
 * key or requester key is skipped, as OpenClaw skips it, and other versions are not read.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isRecord } from '../../common/guards';
import { errorMessage } from '../../common/errorText';
import type { SubagentRun } from '../sqlite';

export interface SubagentRunsFile {
  path: string;
  runs: SubagentRun[];
  /** why the file (or part of it) was not read */
  problem?: string;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function runOf(runId: string, raw: unknown): SubagentRun | null {
  if (!isRecord(raw)) return null;
  const child = text(raw.childSessionKey);
  const requester = text(raw.requesterSessionKey);
  if (!text(raw.runId) || !child || !requester) return null;
  return {
    runId,
    childSessionKey: child,
    requesterSessionKey: requester,
    controllerSessionKey: text(raw.controllerSessionKey) ?? requester,
    createdAt: typeof raw.createdAt === 'number' ? raw.createdAt : 0,
    payload: raw,
  };
}

/** The runs of `<stateDir>/subagents/runs.json`; null when there is no such file. */
export async function readSubagentRunsFile(stateDir: string): Promise<SubagentRunsFile | null> {
  const path = join(stateDir, 'subagents', 'runs.json');
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch {
    return null;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { path, runs: [], problem: `not JSON: ${errorMessage(error)}` };
  }
  if (!isRecord(parsed) || (parsed.version !== 1 && parsed.version !== 2) || !isRecord(parsed.runs)) {
    const version = isRecord(parsed) ? JSON.stringify(parsed.version) : 'none';
    return { path, runs: [], problem: `not a subagent registry of version 1 or 2 (version ${version})` };
  }
  const runs: SubagentRun[] = [];
  let skipped = 0;
  for (const [runId, entry] of Object.entries(parsed.runs)) {
    const run = runOf(runId, entry);
    if (run) runs.push(run);
    else skipped++;
  }
  return {
    path,
    runs,
    ...(skipped > 0
      ? { problem: `${skipped} run(s) without runId, childSessionKey or requesterSessionKey skipped` }
      : {}),
  };
}

/**
 * What `contextscope replay <session.jsonl|dir>` and `replay.start {sessionPath}` accept: a transcript file, or a
 * directory — a sessions directory (with or without sessions.json) or an OpenClaw state dir — in which case the
 * most recently modified top-level (non-subagent, non-archived) session is chosen.
 */
import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { discoverSessions, isSubagentSessionKey, readSessionStore } from '../../transcripts';

export interface ResolvedSessionInput {
  file: string;
  /** how the file was chosen, for a person */
  note?: string;
}

export async function resolveSessionInput(input: string): Promise<ResolvedSessionInput> {
  const path = resolve(input);
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new Error(`Session ${path} does not exist. Pass a session .jsonl file or a folder holding sessions.`);
  }
  if (stat.isFile()) return { file: path };
  if (!stat.isDirectory()) throw new Error(`Session ${path} is neither a file nor a folder.`);

  // A state dir (agents/<id>/sessions) or a sessions folder.
  const discovered = await discoverSessions({ stateDir: path, scanSpawns: false });
  let candidates = discovered.sessions.filter((s) => s.exists && !s.isSubagent && !s.archived);
  if (candidates.length === 0) {
    // a bare sessions folder: leave out the children sessions.json marks as subagents
    const subagentFiles = new Set<string>();
    try {
      const { store } = await readSessionStore(join(path, 'sessions.json'));
      for (const [key, entry] of Object.entries(store)) {
        if (isSubagentSessionKey(key))
          subagentFiles.add(
            entry.sessionFile ? resolve(path, entry.sessionFile) : join(path, `${entry.sessionId}.jsonl`),
          );
      }
    } catch {
      // no store: every transcript is a candidate
    }
    const names = (await readdir(path)).filter((n) => /\.jsonl$/.test(n) && !subagentFiles.has(join(path, n)));
    candidates = names.map((name) => {
      const file = join(path, name);
      return { file, mtimeMs: statSync(file).mtimeMs } as (typeof candidates)[number];
    });
  }
  if (candidates.length === 0) {
    throw new Error(
      `No session transcripts (*.jsonl) found in ${path}. Pass a session file, a sessions folder or an OpenClaw state dir.`,
    );
  }
  const chosen = [...candidates].sort((a, b) => b.mtimeMs - a.mtimeMs)[0];
  return {
    file: chosen.file,
    ...(candidates.length > 1
      ? { note: `${candidates.length} sessions in ${path}; replaying the most recent: ${chosen.file}` }
      : {}),
  };
}

/** A generated OpenClaw state dir for the batch tests: JSONL sessions of agent main, SQLite ones of agent ops. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSession, writeGeneratedSessions } from '../../../../src/transcripts';
import { tempDir } from '../sessionBuilder';

export const BATCH_WINDOW = 16_000;

export interface BatchStateDir {
  stateDir: string;
  /** session ids of the good sessions */
  sessionIds: string[];
  /** the transcript file that is not a session (when asked for) */
  brokenFile?: string;
}

export async function writeBatchStateDir(
  options: { jsonl?: number; sqlite?: number; turns?: number; broken?: boolean } = {},
): Promise<BatchStateDir> {
  const stateDir = tempDir('contextscope-batch-test-');
  const sessionIds: string[] = [];
  const turns = options.turns ?? 6;
  for (let i = 0; i < (options.jsonl ?? 2); i++) {
    const set = generateSession({
      turns: turns + i,
      seed: 100 + i,
      sessionKey: `agent:main:s${i}`,
      contextWindow: BATCH_WINDOW,
    });
    await writeGeneratedSessions(set, stateDir);
    sessionIds.push(set.sessions[0]!.sessionId);
  }
  for (let i = 0; i < (options.sqlite ?? 1); i++) {
    const set = generateSession({
      turns,
      seed: 200 + i,
      agentId: 'ops',
      sessionKey: `agent:ops:q${i}`,
      contextWindow: BATCH_WINDOW,
    });
    await writeGeneratedSessions(set, stateDir, { storage: 'sqlite' });
    sessionIds.push(set.sessions[0]!.sessionId);
  }
  let brokenFile: string | undefined;
  if (options.broken) {
    mkdirSync(join(stateDir, 'agents', 'main', 'sessions'), { recursive: true });
    brokenFile = join(stateDir, 'agents', 'main', 'sessions', 'broken-session.jsonl');
    writeFileSync(brokenFile, '\u0000\u0001 not a transcript \u0002\n');
  }
  return { stateDir, sessionIds, ...(brokenFile ? { brokenFile } : {}) };
}

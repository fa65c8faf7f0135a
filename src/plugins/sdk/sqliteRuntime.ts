/**
 * `openclaw/plugin-sdk/sqlite-runtime` as far as it works without OpenClaw's databases: where an agent's database
 * lives (`resolveOpenClawAgentSqlitePath`) and `tableExists` on a database handle the plugin opened itself. Opening
 * OpenClaw's agent database, its transactions and workers are not provided: a replay lane has no SQLite store (its
 * transcript is a JSONL file), so those names are missing from the shim and the doctor reports a plugin that
 * imports them.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { normalizeAgentId } from './transcript/transcriptTarget';

export interface SqliteRuntime {
  resolveOpenClawAgentSqlitePath(options?: {
    agentId?: string;
    path?: string | null;
    env?: Record<string, string | undefined>;
  }): string;
  tableExists(db: { prepare(sql: string): { get(...args: unknown[]): unknown } }, tableName: string): boolean;
}

function stateDirOf(env: Record<string, string | undefined>): string {
  const fromEnv = env.OPENCLAW_STATE_DIR?.trim();
  if (fromEnv) return resolve(fromEnv.startsWith('~') ? join(homedir(), fromEnv.slice(1)) : fromEnv);
  return join(homedir(), '.openclaw');
}

export function createSqliteRuntime(): SqliteRuntime {
  return {
    resolveOpenClawAgentSqlitePath(options = {}) {
      if (options.path != null) return resolve(options.path);
      const stateDir = stateDirOf(options.env ?? process.env);
      return resolve(stateDir, 'agents', normalizeAgentId(options.agentId), 'agent', 'openclaw-agent.sqlite');
    },
    tableExists(db, tableName) {
      const row = db.prepare("SELECT 1 AS ok FROM sqlite_master WHERE type = 'table' AND name = ?").get(tableName);
      return typeof row === 'object' && row !== null && (row as { ok?: unknown }).ok === 1;
    },
  };
}

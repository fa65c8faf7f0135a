// Resolved plugin config. OpenClaw validates plugins.entries.summary-tree.config against the manifest schema
// before loading; the checks here only protect against a host that skipped that (or passed no entry at all).

import os from 'node:os';
import path from 'node:path';

export type SummarizerMode = 'auto' | 'llm' | 'deterministic';

export interface SummaryTreeConfig {
  tokenBudget: number;
  contextThreshold: number;
  leafChunkTokens: number;
  maxLeavesBeforeCondense: number;
  freshTailTokens: number;
  summaryMaxTokens: number;
  summarizer: SummarizerMode;
  llmModel: string | undefined;
  persist: boolean;
  /** Absolute directory holding `<sessionId>.json` snapshots and `<sessionId>.journal.jsonl` journals (already includes the `summary-tree` segment). */
  stateDir: string;
}

function numberIn(value: unknown, min: number, max: number, fallback: number, integer: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  const clamped = Math.min(max, Math.max(min, value));
  return integer ? Math.floor(clamped) : clamped;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Where state lives when the user does not choose: the OpenClaw state dir if set, else the OS temp dir. */
export function defaultStateRoot(env: NodeJS.ProcessEnv = process.env): string {
  return nonEmptyString(env.OPENCLAW_STATE_DIR) ?? os.tmpdir();
}

/** Used when the host offers no api.resolvePath: expands a leading `~` and resolves against the cwd. */
function resolveUserPath(input: string): string {
  if (input === '~') return os.homedir();
  if (input.startsWith('~/')) return path.join(os.homedir(), input.slice(2));
  return path.resolve(input);
}

export function resolveConfig(
  raw: Record<string, unknown> | undefined,
  resolvePath: (input: string) => string = resolveUserPath,
): SummaryTreeConfig {
  const input = raw ?? {};
  const summarizer = input.summarizer === 'llm' || input.summarizer === 'deterministic' ? input.summarizer : 'auto';
  const configuredDir = nonEmptyString(input.stateDir);
  return {
    tokenBudget: numberIn(input.tokenBudget, 1000, 2_000_000, 100_000, true),
    contextThreshold: numberIn(input.contextThreshold, 0.1, 1, 0.75, false),
    leafChunkTokens: numberIn(input.leafChunkTokens, 200, 50_000, 2_000, true),
    maxLeavesBeforeCondense: numberIn(input.maxLeavesBeforeCondense, 2, 64, 6, true),
    freshTailTokens: numberIn(input.freshTailTokens, 500, 200_000, 8_000, true),
    summaryMaxTokens: numberIn(input.summaryMaxTokens, 50, 4_000, 400, true),
    summarizer,
    llmModel: nonEmptyString(input.llmModel),
    persist: typeof input.persist === 'boolean' ? input.persist : true,
    stateDir: configuredDir ? resolvePath(configuredDir) : path.join(defaultStateRoot(), 'summary-tree'),
  };
}

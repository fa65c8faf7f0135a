/**
 * What real OpenClaw did in each turn of a collected run, read from what it wrote: the session (compaction
 * entries), the trajectory (`context.compiled`), the scripted model's request log, the plugin's engine-call log and
 * each turn's `--json` output (the precheck decision and errors).
 */
import type { LoadedSession } from '../../src/transcripts';
import { readTrajectoryEvents } from '../../src/transcripts';
import type { CollectedRun } from './collect';
import type { ChatMessage } from './scriptedModel';
import fs from 'node:fs';
import path from 'node:path';

export interface OpenClawCompaction {
  tokensBefore: number | null;
  tokensAfter: number | null;
  firstKeptEntryId: string | null;
  hasSummary: boolean;
}

export interface OpenClawTurnFacts {
  turn: number;
  /** the engine-level context OpenClaw compiled for the prompt (the last one when it retried) */
  compiled: unknown[] | null;
  /** the first model request of the turn (the prompt's), without the system message */
  wire: ChatMessage[] | null;
  systemPrompt: string | null;
  compactions: OpenClawCompaction[];
  /** compaction summary requests the model answered during the turn */
  summaryRequests: number;
  memoryFlush: boolean;
  /** model requests a spawned subagent made during the turn (OpenClaw ran a child) */
  subagentRequests: number;
  engineCalls: string[];
  /** `compact` (the precheck failed the attempt), else the route of `contextBudgetStatus`; null when unknown */
  precheckRoute: string | null;
  /** the budget figures of `contextBudgetStatus` (the turn's `--json` output) */
  precheckBudget: {
    promptBudgetBeforeReserve: number;
    effectiveReserveTokens: number;
    estimatedPromptTokens: number;
  } | null;
  /** the turn's error (`Context overflow: … (precheck).`), if any */
  error: string | null;
}

type Rec = Record<string, unknown>;
const rec = (v: unknown): Rec => (typeof v === 'object' && v !== null ? (v as Rec) : {});

async function trajectoryEvents(session: LoadedSession, run: CollectedRun): Promise<Rec[]> {
  if (session.storage?.kind === 'sqlite') return (await readTrajectoryEvents(session)).map((e) => e.event);
  const file = path.join(run.stateDir, 'agents/main/sessions', `${session.header?.id ?? ''}.trajectory.jsonl`);
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Rec);
}

function promptText(data: Rec): string {
  return typeof data.prompt === 'string' ? data.prompt : '';
}

/**
 * When each turn's run started (its first trajectory `session.started`, matched to the turn by its compiled prompt).
 * A run whose precheck failed starts again after the overflow recovery compacted, under the same runId: that
 * compaction belongs to the run, not to the turn before.
 */
function turnStarts(events: Rec[], run: CollectedRun): number[] {
  const startOfRun = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'session.started' && typeof e.runId === 'string' && !startOfRun.has(e.runId))
      startOfRun.set(e.runId, Date.parse(String(e.ts)));
  }
  return run.scenario.turns.map((turn) => {
    const compiled = events.find(
      (e) => e.type === 'context.compiled' && promptText(rec(e.data)).includes(turn.message),
    );
    return startOfRun.get(String(compiled?.runId)) ?? Number.POSITIVE_INFINITY;
  });
}

/** The compaction entries of the session, by the turn whose run wrote them (entry time against run starts). */
function compactionsByTurn(session: LoadedSession, starts: number[]): OpenClawCompaction[][] {
  const out = starts.map((): OpenClawCompaction[] => []);
  for (const entry of session.entries) {
    const e = entry as unknown as Rec;
    if (e.type !== 'compaction') continue;
    const at = Date.parse(String(e.timestamp));
    let turn = 0;
    starts.forEach((start, i) => {
      if (start <= at) turn = i;
    });
    const details = rec(e.details);
    out[turn]!.push({
      tokensBefore: typeof e.tokensBefore === 'number' ? e.tokensBefore : null,
      // 2026.9.6 writes tokensAfter on the entry; 2026.7.35 writes none
      tokensAfter:
        typeof e.tokensAfter === 'number'
          ? e.tokensAfter
          : typeof details.tokensAfter === 'number'
            ? details.tokensAfter
            : null,
      firstKeptEntryId: typeof e.firstKeptEntryId === 'string' ? e.firstKeptEntryId : null,
      hasSummary: typeof e.summary === 'string' && e.summary.length > 0,
    });
  }
  return out;
}

function engineCallsByTurn(run: CollectedRun): string[][] {
  const out = run.scenario.turns.map((): string[] => []);
  let turn = -1;
  for (const line of run.engineCalls) {
    if (typeof line.turnStart === 'number') turn = line.turnStart;
    else if (turn >= 0 && typeof line.method === 'string') out[turn]!.push(line.method);
  }
  return out;
}

function precheckOf(output: unknown) {
  const meta = rec(rec(output).meta);
  const error = rec(meta.error);
  const message = typeof error.message === 'string' ? error.message : null;
  const status = rec(rec(meta.agentMeta).contextBudgetStatus);
  const budget =
    typeof status.promptBudgetBeforeReserve === 'number'
      ? {
          promptBudgetBeforeReserve: status.promptBudgetBeforeReserve,
          effectiveReserveTokens: Number(status.effectiveReserveTokens),
          estimatedPromptTokens: Number(status.estimatedPromptTokens),
        }
      : null;
  if (message?.includes('(precheck)')) return { route: 'compact', budget, error: message };
  return { route: typeof status.route === 'string' ? status.route : null, budget, error: message };
}

export async function openclawFacts(run: CollectedRun, session: LoadedSession): Promise<OpenClawTurnFacts[]> {
  const events = await trajectoryEvents(session, run);
  const compiled = events.filter((e) => e.type === 'context.compiled').map((e) => rec(e.data));
  const compactions = compactionsByTurn(session, turnStarts(events, run));
  const calls = engineCallsByTurn(run);
  return run.scenario.turns.map((turn, i): OpenClawTurnFacts => {
    const context = compiled.filter((d) => promptText(d).includes(turn.message)).at(-1);
    const requests = run.requests.filter((r) => r.turn === i);
    const first = requests.filter((r) => r.kind === 'turn' && r.step === 0).at(-1);
    // fixtures keep a system prompt that repeats the first request's only there (exportFixture.ts)
    const carrier = first?.systemSameAsFirst ? run.requests[0] : first;
    const system = carrier?.body.messages.find((m) => m.role === 'system');
    const precheck = precheckOf(run.turns[i]?.output);
    return {
      turn: i,
      compiled: Array.isArray(context?.messages) ? context.messages : null,
      wire: first ? first.body.messages.filter((m) => m.role !== 'system') : null,
      systemPrompt: typeof system?.content === 'string' ? system.content : null,
      compactions: compactions[i] ?? [],
      summaryRequests: requests.filter((r) => r.kind === 'compaction').length,
      memoryFlush: requests.some((r) => r.kind === 'memory-flush'),
      subagentRequests: requests.filter((r) => r.kind === 'subagent').length,
      engineCalls: calls[i] ?? [],
      precheckRoute: precheck.route,
      precheckBudget: precheck.budget,
      error: precheck.error,
    };
  });
}

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
 * The trajectory's `context.compiled` events of each turn, in file order: a turn's first is the next one, after the
 * previous turn's, whose prompt carries the turn's message — the same message can come back (heartbeat polls), so
 * the first or last event with that text anywhere is not the turn's — and the events after it with the same message,
 * until the next turn's first, are its retries. Run ids cannot tell turns apart: 2026.4 uses the session id for
 * every run. Empty for a turn with no compiled context (2026.3 writes no trajectory).
 */
function compiledByTurn(events: Rec[], run: CollectedRun): { at: number; event: Rec }[][] {
  const compiled = events.flatMap((event, at) => (event.type === 'context.compiled' ? [{ at, event }] : []));
  const carries = (e: { event: Rec }, message: string) => promptText(rec(e.event.data)).includes(message);
  let cursor = 0;
  const firsts = run.scenario.turns.map((turn) => {
    const first = compiled.findIndex((e, i) => i >= cursor && carries(e, turn.message));
    if (first >= 0) cursor = first + 1;
    return first;
  });
  return run.scenario.turns.map((turn, t) => {
    const first = firsts[t]!;
    if (first < 0) return [];
    const next = firsts.slice(t + 1).find((i) => i >= 0) ?? compiled.length;
    return compiled.slice(first, next).filter((e) => carries(e, turn.message));
  });
}

/** When each turn's run started: the trajectory's last `session.started` before the turn's first compiled context. */
function turnStarts(events: Rec[], turnContexts: { at: number }[][]): number[] {
  return turnContexts.map((contexts) => {
    const first = contexts[0]?.at;
    if (first === undefined) return Number.POSITIVE_INFINITY;
    const started = events.slice(0, first).findLast((e) => e.type === 'session.started');
    return started ? Date.parse(String(started.ts)) : Number.POSITIVE_INFINITY;
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
  const turnContexts = compiledByTurn(events, run);
  const compactions = compactionsByTurn(session, turnStarts(events, turnContexts));
  const calls = engineCallsByTurn(run);
  return run.scenario.turns.map((turn, i): OpenClawTurnFacts => {
    // the last attempt is what the model finally got
    const context = rec(turnContexts[i]!.at(-1)?.event.data);
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

/** One user turn of the generated parent session: request, 2-4 tool rounds (maybe a `sessions_spawn`), answer. */
import type { SessionEntry, ToolCall, UserMessage } from '../../contract';
import {
  assistantBetweenTools,
  assistantFinal,
  assistantIntro,
  PROJECT_FILES,
  subagentTask,
  userRequest,
} from './corpus';
import { makeCall, runTool, SCREENSHOT_PATH, thinkingBlock, toolCallId, type ParentContext } from './parentTools';

/** The parent branch may be forked into a child only while it is this small (characters of JSON). */
const FORK_LIMIT_CHARS = 200_000;

interface SpawnCall {
  call: ToolCall;
  result: () => void;
}

function recordFailedSpawn(ctx: ParentContext, call: ToolCall): void {
  ctx.failedSpawns += 1;
  const details = {
    status: 'error',
    error: 'subagent limit reached: 2 active runs (agents.defaults.subagents.maxConcurrent = 2)',
  };
  ctx.sim.toolResult(call, [{ type: 'text', text: JSON.stringify(details, null, 2) }], true, details);
}

/** The parent branch as it stands before the assistant message holding `call`, when it is small enough. */
function forkPathBefore(ctx: ParentContext, call: ToolCall): SessionEntry[] | undefined {
  const active = ctx.sim.transcript.activePath();
  const callIndex = active.findIndex(
    (e) =>
      e.type === 'message' &&
      e.message.role === 'assistant' &&
      e.message.content.some((b) => b.type === 'toolCall' && b.id === call.id),
  );
  const path = active.slice(0, callIndex);
  return JSON.stringify(path).length <= FORK_LIMIT_CHARS ? path : undefined;
}

/** A `sessions_spawn` call and the function that records its result (k = 0 forks; the last of 2+ fails). */
function spawnToolCall(ctx: ParentContext, k: number, path: string): SpawnCall {
  const { sim, spawnCount } = ctx;
  const r = sim.rng;
  const { task, label } = subagentTask(path, k);
  const fails = spawnCount >= 2 && k === spawnCount - 1;
  let context: 'fork' | 'isolated' = k === 0 ? 'fork' : 'isolated';
  const args: Record<string, unknown> = { task, label, context };
  if (context === 'isolated' && !fails) args.lightContext = true;
  args.cleanup = fails ? 'delete' : 'keep';
  args.mode = 'run';
  const call: ToolCall = { type: 'toolCall', id: toolCallId(ctx), name: 'sessions_spawn', arguments: args };
  const result = () => {
    if (fails) return recordFailedSpawn(ctx, call);
    let forkPath: SessionEntry[] | undefined;
    if (context === 'fork') {
      forkPath = forkPathBefore(ctx, call);
      if (!forkPath) context = 'isolated';
    }
    const childKey = `agent:${ctx.agentId}:subagent:${r.uuid()}`;
    const details = { status: 'accepted', childSessionKey: childKey, runId: r.uuid() };
    sim.toolResult(call, [{ type: 'text', text: JSON.stringify(details, null, 2) }], false, details);
    ctx.children.push({ key: childKey, sessionId: r.uuid(), task, label, context, forkPath, startMs: sim.ms + 1000 });
  };
  return { call, result };
}

function userTurnMessage(ctx: ParentContext, t: number, path: string): void {
  const { sim } = ctx;
  sim.advance(20, 240);
  const request = userRequest(ctx.textRng, path);
  ctx.lastRequest = request;
  if (!ctx.firstRequest) ctx.firstRequest = request;
  const content: UserMessage['content'] = ctx.imageTurns.has(t)
    ? [
        { type: 'text', text: `${request}\n\nHere's a screenshot of what I see:` },
        { type: 'image', data: sim.rng.pick(ctx.imageData), mimeType: 'image/png' },
      ]
    : request;
  sim.appendMessage({ role: 'user', content, timestamp: sim.ms });
}

/** One tool round: the assistant's calls (1-2 tools, a screenshot read, the spawn) and their results. */
function toolRound(ctx: ParentContext, round: number, path: string, touched: Set<string>, spawnIndex?: number): void {
  const { sim } = ctx;
  const r = sim.rng;
  const roundPath = round === 0 ? path : r.chance(0.6) ? path : r.pick(PROJECT_FILES);
  touched.add(roundPath);
  const calls: ToolCall[] = [makeCall(ctx, roundPath)];
  if (r.chance(0.3)) calls.push(makeCall(ctx, r.pick(PROJECT_FILES)));
  if (round === 0 && ctx.images && r.chance(0.04))
    calls.push({ type: 'toolCall', id: toolCallId(ctx), name: 'read', arguments: { path: SCREENSHOT_PATH } });
  const spawn = spawnIndex !== undefined && round === 1 ? spawnToolCall(ctx, spawnIndex, roundPath) : undefined;
  if (spawn) calls.push(spawn.call);
  const text = round === 0 ? assistantIntro(ctx.textRng, path) : assistantBetweenTools(ctx.textRng);
  const intro = text ? [{ type: 'text' as const, text }] : [];
  sim.assistant([...(round === 0 ? thinkingBlock(ctx, path) : []), ...intro, ...calls], 'toolUse');
  for (const call of calls) {
    if (spawn && call === spawn.call) spawn.result();
    else
      runTool(ctx, call, call.name === 'read' && call.arguments.path === SCREENSHOT_PATH ? SCREENSHOT_PATH : roundPath);
  }
}

/** One user turn: request, 2-4 tool rounds, final answer. Returns the final assistant entry. */
export function playTurn(ctx: ParentContext, t: number, spawnIndex: number | undefined): SessionEntry {
  const { sim } = ctx;
  const path = sim.rng.pick(PROJECT_FILES);
  userTurnMessage(ctx, t, path);
  const rounds = sim.rng.int(2, 4);
  const touched = new Set<string>([path]);
  for (let round = 0; round < rounds; round++) toolRound(ctx, round, path, touched, spawnIndex);
  const final = sim.assistant(
    [...thinkingBlock(ctx, path), { type: 'text', text: assistantFinal(ctx.textRng, path, [...touched]) }],
    'stop',
  );
  ctx.doneLines.push(`- [x] ${ctx.lastRequest.split('\n')[0]!.slice(0, 110)}`);
  return final;
}

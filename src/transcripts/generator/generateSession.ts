/**
 * Seeded synthetic OpenClaw sessions (coding-assistant flavour) for demos, tests and benchmarks.
 *
 * A generated set is one parent session (key `agent:<agent>:main`) and, with subagents, its children
 * (`agent:<agent>:subagent:<uuid>`), plus the `sessions.json` store linking them. The parent has: a start
 * (model_change, thinking_level_change, a `custom` bootstrap entry), turns of user request → 2-4 tool rounds
 * (read / exec / edit / write / web_search, some in parallel, results of several KB) → final answer, usage on
 * every assistant message, images, CJK and emoji, a `session_info` name, a `custom_message` memory recall, a
 * mid-session model switch and thinking-level change, an abandoned side branch (a `leaf` entry back to the fork
 * point plus a `branch_summary`) with a `label`, recorded compactions whenever the last usage passes
 * `contextWindow − reserveTokens`, and `sessions_spawn` calls (fork / isolated, one failing).
 * Output is a pure function of the options: ids, uuids, timestamps and text all come from the seed.
 */
import type { NewSessionEntry, SessionEntry, SessionHeader, SessionStore } from '../../contract';
import { serializeSessionEntries } from '../serializeSession';
import { branchSummaryText, compactionSummaryText, PROJECT_FILES } from './corpus';
import { generateChildSession } from './generateChildSession';
import type { GeneratedSession, GeneratedSessionSet, GenerateSessionOptions } from './generatedTypes';
import type { ParentContext } from './parentTools';
import { playTurn } from './parentTurn';
import { tinyPngBase64 } from './pngImage';
import { Prng } from './prng';
import { effectiveReserveTokens, MODELS, SessionSimulator, type CompactionSettings } from './sessionSimulator';

export type {
  GenerateSessionOptions,
  GeneratedSession,
  GeneratedSessionSet,
  GeneratedSessionStats,
} from './generatedTypes';

interface Schedule {
  branchTurn: number;
  modelSwitchTurn: number;
  modelBackTurn: number;
  thinkingTurn: number;
  memoryTurn: number;
  /** turn -> index of the spawn made in it */
  spawnTurns: Map<number, number>;
}

const PALETTE: [number, number, number][] = [
  [52, 120, 246],
  [230, 80, 60],
  [40, 170, 90],
  [250, 200, 40],
];

function compactionSettings(options: GenerateSessionOptions): CompactionSettings {
  const contextWindow = options.contextWindow ?? 200_000;
  const reserveTokens = options.reserveTokens ?? effectiveReserveTokens(contextWindow);
  return {
    enabled: options.compaction !== false,
    contextWindow,
    reserveTokens,
    keepRecentTokens: options.keepRecentTokens ?? Math.min(20_000, Math.floor((contextWindow - reserveTokens) / 2)),
  };
}

/** When the one-off events happen (by turn index), and which turns spawn a subagent. */
function planSchedule(turns: number, options: GenerateSessionOptions, spawnCount: number): Schedule {
  const spawnTurns = new Map<number, number>();
  for (let k = 0; k < spawnCount; k++) {
    const firstShift = k === 0 ? Math.floor(turns / (spawnCount + 1) / 2) : 0;
    const at = Math.min(turns - 1, Math.max(1, Math.floor((turns * (k + 1)) / (spawnCount + 1)) - firstShift));
    let t = at;
    while (spawnTurns.has(t) && t < turns - 1) t++;
    spawnTurns.set(t, k);
  }
  return {
    branchTurn: (options.branch ?? turns >= 6) ? Math.max(2, Math.floor(turns * 0.55)) : -1,
    modelSwitchTurn: turns >= 5 ? Math.floor(turns * 0.4) : -1,
    modelBackTurn: turns >= 10 ? Math.floor(turns * 0.7) : -1,
    thinkingTurn: turns >= 4 ? Math.floor(turns * 0.6) : -1,
    memoryTurn: turns >= 3 ? Math.max(1, Math.floor(turns * 0.3)) : -1,
    spawnTurns,
  };
}

function imageTurnsFor(turns: number, images: boolean, textRng: Prng): Set<number> {
  const imageTurns = new Set<number>();
  if (images) {
    imageTurns.add(Math.min(1, turns - 1));
    for (let t = 2; t < turns; t++) if (textRng.chance(0.08)) imageTurns.add(t);
  }
  return imageTurns;
}

/** Session start, as OpenClaw writes it: model, thinking level, the bootstrap record. */
function startSession(sim: SessionSimulator): void {
  sim.append({ type: 'model_change', provider: sim.model.provider, modelId: sim.model.model } as NewSessionEntry);
  sim.append({ type: 'thinking_level_change', thinkingLevel: 'low' } as NewSessionEntry);
  sim.thinkingLevel = 'low';
  sim.append({
    type: 'custom',
    customType: 'openclaw.bootstrap',
    data: { files: ['AGENTS.md', 'SOUL.md', 'TOOLS.md'], mode: 'full' },
  } as NewSessionEntry);
}

/** Model switches, the thinking-level change and the memory recall scheduled before turn `t`. */
function scheduledChanges(ctx: ParentContext, schedule: Schedule, t: number): void {
  const { sim } = ctx;
  for (const [turn, model] of [
    [schedule.modelSwitchTurn, MODELS.gpt],
    [schedule.modelBackTurn, MODELS.sonnet],
  ] as const) {
    if (t !== turn) continue;
    sim.model = model;
    sim.append({ type: 'model_change', provider: sim.model.provider, modelId: sim.model.model } as NewSessionEntry);
  }
  if (t === schedule.thinkingTurn) {
    sim.thinkingLevel = 'high';
    sim.append({ type: 'thinking_level_change', thinkingLevel: 'high' } as NewSessionEntry);
  }
  if (t === schedule.memoryTurn) {
    sim.advance(1, 3);
    const text = `Relevant memory (2 hits):\n- The team prefers integer minor units for money (decided 2026-02-11).\n- 测试数据库在 CI 上使用 5433 端口。`;
    const entry = sim.append({
      type: 'custom_message',
      customType: 'memory-recall',
      content: text,
      display: false,
      details: { source: 'memory-core', hits: 2 },
    } as NewSessionEntry);
    sim.track(entry.id, Math.ceil(text.length / 4), true);
  }
}

/** An attempt the user walked away from: played on a side branch, then the leaf moves back to the fork point. */
function abandonedBranch(ctx: ParentContext, t: number): void {
  const { sim } = ctx;
  const forkPoint = sim.transcript.leafId();
  const restore = sim.snapshot();
  const abandoned = playTurn(ctx, t, undefined);
  ctx.doneLines.pop();
  restore();
  sim.advance(5, 30);
  if (forkPoint) sim.append({ type: 'leaf', targetId: forkPoint } as NewSessionEntry);
  const summary = branchSummaryText(ctx.textRng, PROJECT_FILES[t % PROJECT_FILES.length]!);
  const bs = sim.append({ type: 'branch_summary', fromId: abandoned.id, summary } as NewSessionEntry);
  sim.track(bs.id, Math.ceil(summary.length / 4), true);
  if (forkPoint)
    sim.append({ type: 'label', targetId: forkPoint, label: 'before-refactor-attempt' } as NewSessionEntry);
}

/** Plays every turn; returns the number of side branches. */
function playTurns(ctx: ParentContext, turns: number, schedule: Schedule, settings: CompactionSettings): number {
  const { sim } = ctx;
  let branches = 0;
  for (let t = 0; t < turns; t++) {
    scheduledChanges(ctx, schedule, t);
    if (t === schedule.branchTurn) {
      abandonedBranch(ctx, t);
      branches += 1;
    }
    playTurn(ctx, t, schedule.spawnTurns.get(t));
    if (t === 0)
      sim.append({ type: 'session_info', name: ctx.firstRequest.split('\n')[0]!.slice(0, 60) } as NewSessionEntry);
    if (sim.shouldCompact(settings) && t < turns - 1) {
      const summary = compactionSummaryText(
        ctx.firstRequest,
        ctx.lastRequest,
        ctx.doneLines,
        ctx.readFiles,
        ctx.modifiedFiles,
      );
      sim.compact(settings, summary, {
        readFiles: [...ctx.readFiles].sort(),
        modifiedFiles: [...ctx.modifiedFiles].sort(),
      });
    }
  }
  return branches;
}

function parentSession(
  ctx: ParentContext,
  key: string,
  header: SessionHeader,
  entries: SessionEntry[],
): GeneratedSession {
  const fileName = `${header.id}.jsonl`;
  return {
    sessionKey: key,
    sessionId: header.id,
    fileName,
    header,
    entries,
    storeEntry: {
      sessionId: header.id,
      updatedAt: ctx.sim.ms,
      sessionFile: fileName,
      chatType: 'direct',
      thinkingLevel: ctx.sim.thinkingLevel,
    },
  };
}

export function generateSession(options: GenerateSessionOptions): GeneratedSessionSet {
  const turns = Math.max(1, Math.floor(options.turns));
  const agentId = options.agentId ?? 'main';
  const rng = new Prng(options.seed);
  const startMs = Date.parse(options.baseTimestamp ?? '2026-03-02T09:00:00.000Z');
  const cwd = options.cwd ?? '/home/dev/projects/acme-api';
  const settings = compactionSettings(options);
  const images = options.images !== false;
  const spawnCount = Math.max(0, Math.floor(options.subagents ?? 0));
  const parentKey = options.sessionKey ?? `agent:${agentId}:main`;
  const sessionId = rng.uuid();
  const header: SessionHeader = {
    type: 'session',
    version: 3,
    id: sessionId,
    timestamp: new Date(startMs).toISOString(),
    cwd,
  };
  const sim = new SessionSimulator(header, rng.fork('parent'), startMs);
  const textRng = rng.fork('text');
  const imageData = PALETTE.map((rgb, i) => tinyPngBase64(8 + i * 4, rgb));
  const schedule = planSchedule(turns, options, spawnCount);
  const ctx: ParentContext = {
    sim, textRng, imageData, images, imageTurns: imageTurnsFor(turns, images, textRng), cwd, agentId, spawnCount,
    readFiles: new Set(), modifiedFiles: new Set(), doneLines: [], firstRequest: '', lastRequest: '', failedSpawns: 0, children: [],
  }; // prettier-ignore
  startSession(sim);
  const branches = playTurns(ctx, turns, schedule, settings);
  const parentEntries = [...sim.transcript.entries()];
  const parent = parentSession(ctx, parentKey, header, parentEntries);
  const sessions: GeneratedSession[] = [parent];
  for (const child of ctx.children)
    sessions.push(generateChildSession(child, parent, cwd, sim.model, rng.fork(child.key), textRng, parentKey));
  const store: SessionStore = {};
  for (const s of sessions) store[s.sessionKey] = s.storeEntry;
  return {
    agentId,
    sessions,
    store,
    stats: {
      turns,
      messages: sim.messageCount,
      chars: serializeSessionEntries(header, parentEntries).length,
      entries: parentEntries.length,
      compactions: sim.compactions,
      spawns: schedule.spawnTurns.size,
      failedSpawns: ctx.failedSpawns,
      branches,
      childSessions: ctx.children.length,
    },
  };
}

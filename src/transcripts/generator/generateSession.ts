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
import type {
  NewSessionEntry,
  SessionEntry,
  SessionHeader,
  SessionStore,
  SessionStoreEntry,
  ToolCall,
  UserMessage,
} from '../../contract';
import { serializeSessionEntries } from '../serializeSession';
import {
  assistantBetweenTools,
  assistantFinal,
  assistantIntro,
  branchSummaryText,
  commandRun,
  compactionSummaryText,
  fileContent,
  PROJECT_FILES,
  subagentTask,
  thinkingText,
  userRequest,
  webSearchResult,
} from './corpus';
import { generateChildSession, type PendingChild } from './generateChildSession';
import { tinyPngBase64 } from './pngImage';
import { Prng } from './prng';
import { effectiveReserveTokens, MODELS, SessionSimulator, type CompactionSettings } from './sessionSimulator';

export interface GenerateSessionOptions {
  /** user turns on the parent's active branch */
  turns: number;
  seed: number | string;
  /** default "main" */
  agentId?: string;
  /** store key of the parent session (default `agent:<agentId>:main`) */
  sessionKey?: string;
  /** number of `sessions_spawn` calls (default 0); with 2 or more, the last one fails */
  subagents?: number;
  /** simulated model context window for the compaction trigger (default 200000) */
  contextWindow?: number;
  /** default: OpenClaw's effective reserve for the window (20000, capped to leave 8000 for the prompt) */
  reserveTokens?: number;
  /** default: min(20000, (window − reserve) / 2) */
  keepRecentTokens?: number;
  /** record compactions (default true) */
  compaction?: boolean;
  /** add an abandoned side branch (default: when turns ≥ 6) */
  branch?: boolean;
  /** add image blocks (default true) */
  images?: boolean;
  /** ISO start time (default 2026-03-02T09:00:00.000Z) */
  baseTimestamp?: string;
  cwd?: string;
}

export interface GeneratedSession {
  sessionKey: string;
  sessionId: string;
  /** file name inside the sessions directory */
  fileName: string;
  header: SessionHeader;
  entries: SessionEntry[];
  storeEntry: SessionStoreEntry;
}

export interface GeneratedSessionStats {
  turns: number;
  /** message entries in the parent transcript (all branches) */
  messages: number;
  /** characters of the parent transcript file */
  chars: number;
  entries: number;
  compactions: number;
  spawns: number;
  failedSpawns: number;
  branches: number;
  childSessions: number;
}

export interface GeneratedSessionSet {
  agentId: string;
  /** parent first, then children in spawn order */
  sessions: GeneratedSession[];
  store: SessionStore;
  stats: GeneratedSessionStats;
}

const FORK_LIMIT_CHARS = 200_000;

export function generateSession(options: GenerateSessionOptions): GeneratedSessionSet {
  const turns = Math.max(1, Math.floor(options.turns));
  const agentId = options.agentId ?? 'main';
  const rng = new Prng(options.seed);
  const startMs = Date.parse(options.baseTimestamp ?? '2026-03-02T09:00:00.000Z');
  const cwd = options.cwd ?? '/home/dev/projects/acme-api';
  const contextWindow = options.contextWindow ?? 200_000;
  const reserveTokens = options.reserveTokens ?? effectiveReserveTokens(contextWindow);
  const settings: CompactionSettings = {
    enabled: options.compaction !== false,
    contextWindow,
    reserveTokens,
    keepRecentTokens: options.keepRecentTokens ?? Math.min(20_000, Math.floor((contextWindow - reserveTokens) / 2)),
  };
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
  const palette: [number, number, number][] = [
    [52, 120, 246],
    [230, 80, 60],
    [40, 170, 90],
    [250, 200, 40],
  ];
  const imageData = palette.map((rgb, i) => tinyPngBase64(8 + i * 4, rgb));

  // Schedule of one-off events, by turn index.
  const branchTurn = (options.branch ?? turns >= 6) ? Math.max(2, Math.floor(turns * 0.55)) : -1;
  const modelSwitchTurn = turns >= 5 ? Math.floor(turns * 0.4) : -1;
  const modelBackTurn = turns >= 10 ? Math.floor(turns * 0.7) : -1;
  const thinkingTurn = turns >= 4 ? Math.floor(turns * 0.6) : -1;
  const memoryTurn = turns >= 3 ? Math.max(1, Math.floor(turns * 0.3)) : -1;
  const imageTurns = new Set<number>();
  if (images) {
    imageTurns.add(Math.min(1, turns - 1));
    for (let t = 2; t < turns; t++) if (textRng.chance(0.08)) imageTurns.add(t);
  }
  const spawnTurns = new Map<number, number>();
  for (let k = 0; k < spawnCount; k++) {
    const at = Math.min(
      turns - 1,
      Math.max(
        1,
        Math.floor((turns * (k + 1)) / (spawnCount + 1)) - (k === 0 ? Math.floor(turns / (spawnCount + 1) / 2) : 0),
      ),
    );
    let t = at;
    while (spawnTurns.has(t) && t < turns - 1) t++;
    spawnTurns.set(t, k);
  }

  let branches = 0;
  let failedSpawns = 0;
  const children: PendingChild[] = [];
  const readFiles = new Set<string>();
  const modifiedFiles = new Set<string>();
  const doneLines: string[] = [];
  let firstRequest = '';
  let lastRequest = '';

  // Session start, as OpenClaw writes it.
  sim.append({ type: 'model_change', provider: sim.model.provider, modelId: sim.model.model } as NewSessionEntry);
  sim.append({ type: 'thinking_level_change', thinkingLevel: 'low' } as NewSessionEntry);
  sim.thinkingLevel = 'low';
  sim.append({
    type: 'custom',
    customType: 'openclaw.bootstrap',
    data: { files: ['AGENTS.md', 'SOUL.md', 'TOOLS.md'], mode: 'full' },
  } as NewSessionEntry);

  const toolCallId = () =>
    sim.model.provider === 'anthropic' ? `toolu_01${sim.rng.base62(22)}` : `call_${sim.rng.base62(24)}`;

  const runTool = (call: ToolCall, path: string) => {
    const r = sim.rng;
    switch (call.name) {
      case 'read': {
        readFiles.add(path);
        if (path.endsWith('.png')) {
          sim.toolResult(
            call,
            [
              { type: 'text', text: `Read image file [image/png]` },
              { type: 'image', data: r.pick(imageData), mimeType: 'image/png' },
            ],
            false,
          );
        } else {
          sim.toolResult(call, [{ type: 'text', text: fileContent(textRng, path, r.int(20, 90)) }], false);
        }
        return;
      }
      case 'exec': {
        const run = commandRun(textRng, path);
        call.arguments = { command: run.command, workdir: cwd };
        const text =
          (run.output || '(no output)') + (run.exitCode !== 0 ? `\n\n(Command exited with code ${run.exitCode})` : '');
        sim.toolResult(call, [{ type: 'text', text }], false, {
          status: 'completed',
          exitCode: run.exitCode,
          durationMs: r.int(300, 24000),
          cwd,
        });
        return;
      }
      case 'edit': {
        if (r.chance(0.06)) {
          sim.toolResult(
            call,
            [
              {
                type: 'text',
                text: `Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`,
              },
            ],
            true,
          );
          return;
        }
        modifiedFiles.add(path);
        const diff = `--- ${path}\n+++ ${path}\n@@ -${r.int(10, 200)},3 +${r.int(10, 200)},4 @@\n-${String(call.arguments.oldText)}\n+${String(call.arguments.newText)}`;
        sim.toolResult(call, [{ type: 'text', text: `Successfully replaced text in ${path}.` }], false, { diff });
        return;
      }
      case 'write': {
        modifiedFiles.add(path);
        sim.toolResult(
          call,
          [{ type: 'text', text: `Successfully wrote ${String(call.arguments.content).length} bytes to ${path}` }],
          false,
        );
        return;
      }
      case 'web_search':
        sim.toolResult(call, [{ type: 'text', text: webSearchResult(textRng, String(call.arguments.query)) }], false);
        return;
    }
  };

  const makeCall = (path: string): ToolCall => {
    const r = sim.rng;
    const roll = r.next();
    const id = toolCallId();
    if (roll < 0.38) return { type: 'toolCall', id, name: 'read', arguments: { path } };
    if (roll < 0.72) return { type: 'toolCall', id, name: 'exec', arguments: { command: '' } };
    if (roll < 0.88) {
      const oldText = fileContent(textRng, path, 3).replace(/^\s*\d+\t/gm, '');
      return {
        type: 'toolCall',
        id,
        name: 'edit',
        arguments: { path, oldText, newText: `${oldText}\n  // handled: release the connection on the error path` },
      };
    }
    if (roll < 0.95)
      return {
        type: 'toolCall',
        id,
        name: 'write',
        arguments: { path, content: fileContent(textRng, path, r.int(15, 50)).replace(/^\s*\d+\t/gm, '') },
      };
    return {
      type: 'toolCall',
      id,
      name: 'web_search',
      arguments: {
        query: `node-postgres ${r.pick(['pool release on error', 'serialization failure retry', 'idle timeout'])}`,
        count: 5,
      },
    };
  };

  const thinkingBlock = (path: string) =>
    sim.thinkingLevel !== 'off' && sim.model.provider === 'anthropic'
      ? [{ type: 'thinking' as const, thinking: thinkingText(textRng, path), thinkingSignature: sim.rng.base62(64) }]
      : [];

  /** One user turn: request, 2-4 tool rounds, final answer. Returns the final assistant entry. */
  const playTurn = (t: number, spawnIndex: number | undefined): SessionEntry => {
    const r = sim.rng;
    const path = r.pick(PROJECT_FILES);
    sim.advance(20, 240);
    const request = userRequest(textRng, path);
    lastRequest = request;
    if (!firstRequest) firstRequest = request;
    const content: UserMessage['content'] = imageTurns.has(t)
      ? [
          { type: 'text', text: `${request}\n\nHere's a screenshot of what I see:` },
          { type: 'image', data: r.pick(imageData), mimeType: 'image/png' },
        ]
      : request;
    sim.appendMessage({ role: 'user', content, timestamp: sim.ms });

    const rounds = r.int(2, 4);
    const touched = new Set<string>([path]);
    for (let round = 0; round < rounds; round++) {
      const roundPath = round === 0 ? path : r.chance(0.6) ? path : r.pick(PROJECT_FILES);
      touched.add(roundPath);
      const calls: ToolCall[] = [makeCall(roundPath)];
      if (r.chance(0.3)) calls.push(makeCall(r.pick(PROJECT_FILES)));
      if (round === 0 && images && r.chance(0.04))
        calls.push({
          type: 'toolCall',
          id: toolCallId(),
          name: 'read',
          arguments: { path: 'docs/screenshots/checkout.png' },
        });
      const spawnCall = spawnIndex !== undefined && round === 1 ? spawnToolCall(spawnIndex, roundPath) : undefined;
      if (spawnCall) calls.push(spawnCall.call);
      const text = round === 0 ? assistantIntro(textRng, path) : assistantBetweenTools(textRng);
      const intro = text ? [{ type: 'text' as const, text }] : [];
      sim.assistant([...(round === 0 ? thinkingBlock(path) : []), ...intro, ...calls], 'toolUse');
      for (const call of calls) {
        if (spawnCall && call === spawnCall.call) spawnCall.result();
        else
          runTool(
            call,
            call.name === 'read' && call.arguments.path === 'docs/screenshots/checkout.png'
              ? 'docs/screenshots/checkout.png'
              : roundPath,
          );
      }
    }
    const final = sim.assistant(
      [...thinkingBlock(path), { type: 'text', text: assistantFinal(textRng, path, [...touched]) }],
      'stop',
    );
    doneLines.push(`- [x] ${request.split('\n')[0]!.slice(0, 110)}`);
    return final;
  };

  /** A `sessions_spawn` call and the function that records its result. */
  const spawnToolCall = (k: number, path: string): { call: ToolCall; result: () => void } => {
    const r = sim.rng;
    const { task, label } = subagentTask(path, k);
    const fails = spawnCount >= 2 && k === spawnCount - 1;
    let context: 'fork' | 'isolated' = k === 0 ? 'fork' : 'isolated';
    const args: Record<string, unknown> = { task, label, context };
    if (context === 'isolated' && !fails) args.lightContext = true;
    args.cleanup = fails ? 'delete' : 'keep';
    args.mode = 'run';
    const call: ToolCall = { type: 'toolCall', id: toolCallId(), name: 'sessions_spawn', arguments: args };
    return {
      call,
      result: () => {
        if (fails) {
          failedSpawns += 1;
          const details = {
            status: 'error',
            error: 'subagent limit reached: 2 active runs (agents.defaults.subagents.maxConcurrent = 2)',
          };
          sim.toolResult(call, [{ type: 'text', text: JSON.stringify(details, null, 2) }], true, details);
          return;
        }
        let forkPath: SessionEntry[] | undefined;
        if (context === 'fork') {
          // Fork the parent branch as it stands before this spawning assistant message.
          const active = sim.transcript.activePath();
          const callIndex = active.findIndex(
            (e) =>
              e.type === 'message' &&
              e.message.role === 'assistant' &&
              e.message.content.some((b) => b.type === 'toolCall' && b.id === call.id),
          );
          const path = active.slice(0, callIndex);
          if (JSON.stringify(path).length <= FORK_LIMIT_CHARS) forkPath = path;
          else context = 'isolated';
        }
        const childKey = `agent:${agentId}:subagent:${r.uuid()}`;
        const details = { status: 'accepted', childSessionKey: childKey, runId: r.uuid() };
        sim.toolResult(call, [{ type: 'text', text: JSON.stringify(details, null, 2) }], false, details);
        children.push({ key: childKey, sessionId: r.uuid(), task, label, context, forkPath, startMs: sim.ms + 1000 });
      },
    };
  };

  for (let t = 0; t < turns; t++) {
    if (t === modelSwitchTurn) {
      sim.model = MODELS.gpt;
      sim.append({ type: 'model_change', provider: sim.model.provider, modelId: sim.model.model } as NewSessionEntry);
    }
    if (t === modelBackTurn) {
      sim.model = MODELS.sonnet;
      sim.append({ type: 'model_change', provider: sim.model.provider, modelId: sim.model.model } as NewSessionEntry);
    }
    if (t === thinkingTurn) {
      sim.thinkingLevel = 'high';
      sim.append({ type: 'thinking_level_change', thinkingLevel: 'high' } as NewSessionEntry);
    }
    if (t === memoryTurn) {
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
    if (t === branchTurn) {
      // An attempt the user walked away from: played on a side branch, then the leaf moves back.
      const forkPoint = sim.transcript.leafId();
      const restore = sim.snapshot();
      const abandoned = playTurn(t, undefined);
      doneLines.pop();
      restore();
      branches += 1;
      sim.advance(5, 30);
      if (forkPoint) sim.append({ type: 'leaf', targetId: forkPoint } as NewSessionEntry);
      const summary = branchSummaryText(textRng, PROJECT_FILES[t % PROJECT_FILES.length]!);
      const bs = sim.append({ type: 'branch_summary', fromId: abandoned.id, summary } as NewSessionEntry);
      sim.track(bs.id, Math.ceil(summary.length / 4), true);
      if (forkPoint)
        sim.append({ type: 'label', targetId: forkPoint, label: 'before-refactor-attempt' } as NewSessionEntry);
    }
    playTurn(t, spawnTurns.get(t));
    if (t === 0)
      sim.append({ type: 'session_info', name: firstRequest.split('\n')[0]!.slice(0, 60) } as NewSessionEntry);
    if (sim.shouldCompact(settings) && t < turns - 1) {
      sim.compact(settings, compactionSummaryText(firstRequest, lastRequest, doneLines, readFiles, modifiedFiles), {
        readFiles: [...readFiles].sort(),
        modifiedFiles: [...modifiedFiles].sort(),
      });
    }
  }

  const parentEntries = [...sim.transcript.entries()];
  const fileName = `${sessionId}.jsonl`;
  const parent: GeneratedSession = {
    sessionKey: parentKey,
    sessionId,
    fileName,
    header,
    entries: parentEntries,
    storeEntry: {
      sessionId,
      updatedAt: sim.ms,
      sessionFile: fileName,
      chatType: 'direct',
      thinkingLevel: sim.thinkingLevel,
    },
  };
  const sessions: GeneratedSession[] = [parent];
  for (const child of children)
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
      spawns: spawnTurns.size,
      failedSpawns,
      branches,
      childSessions: children.length,
    },
  };
}

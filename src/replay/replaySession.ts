/**
 * `replaySession`: replays a recorded OpenClaw session through several lanes at once and returns the Recording.
 *
 * Each lane gets its own runtime, its own engine (resolved once for the whole replay and reused, as the embedded
 * runner resolves once per run), its own transcript and folders. Lanes advance turn by turn together, so a
 * plugin lane's engine host works while the parent process handles the other lanes. Subagent children are
 * replayed as child lanes inside the parent turn that spawned them. Nothing calls a model: each turn's recorded
 * output is appended to every lane.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../app';
import type { SessionHeader } from '../contract';
import { createDeterministicSummarizer } from '../summarize';
import { encodingForModel } from '../tokens';
import { getActivePath, readSessionFile, readSessionStore, type LoadedSession } from '../transcripts';
import { FINDING_SEVERITY } from './findings/computeTurnFindings';
import { LaneRunner } from './lane/laneRunner';
import { laneSettingsFindings } from './findings/laneSettingsFindings';
import { createLaneGroup } from './lane/laneSetup';
import type { LaneGroup } from './lane/laneGroup';
import { defaultLaneLabel } from './lane/laneSpec';
import { LaneTranscript } from './lane/laneTranscript';
import { prepareSession, type PreparedSession } from './session/prepareSession';
import { RecordedEngine } from './recording/recordEngineCalls';
import {
  RECORDING_SCHEMA_VERSION,
  type Finding,
  type LaneRecord,
  type Recording,
  type ReplayEvent,
  type SessionInfo,
  type TurnRecord,
} from '../contract/recording';
import { ReplayState, type ChildReplayOutcome } from './lane/replayState';
import type { ReplayLaneConfig, ReplayOptions } from './lane/replayTypes';
import { recordedTurnOutcome } from './session/sessionTurns';
import { sweepPendingSubagents } from './lane/subagentLifecycle';
import type { RecordedSpawn } from './session/subagentSpawns';
import type { QuarantineLogEntry } from './recording/turnDraft';

export class ReplayAbortedError extends Error {
  readonly code = 'replay_aborted';
  constructor() {
    super('The replay was cancelled.');
    this.name = 'AbortError';
  }
}

/** Lane ids: readable, no spaces or slashes (a "/" separates a subagent lane from its parent lane's id). */
function laneSlug(text: string): string {
  return text.replace(/[^A-Za-z0-9._@:#-]+/g, '-').replace(/^-+|-+$/g, '') || 'lane';
}

function fsSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'lane';
}

function defaultLabel(lane: ReplayLaneConfig): string {
  if (lane.label) return lane.label;
  if (lane.engine.kind === 'legacy') return 'legacy';
  if (lane.engine.kind === 'in-process') return lane.engine.engineId;
  return defaultLaneLabel({
    kind: 'plugin',
    plugin: lane.engine.plugin,
    spec: '',
    ...(lane.engine.engineId ? { engineId: lane.engine.engineId } : {}),
  });
}

/** The model the session ran with: the last model_change, or the provider/model of the last assistant message. */
function sessionModel(loaded: LoadedSession): { provider: string; modelId: string } | null {
  const path = getActivePath(loaded);
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i];
    if (entry.type === 'model_change') return { provider: entry.provider, modelId: entry.modelId };
    if (entry.type === 'message' && entry.message.role === 'assistant') {
      const { provider, model } = entry.message;
      if (typeof provider === 'string' && typeof model === 'string') return { provider, modelId: model };
    }
  }
  return null;
}

/** The sessions.json key whose entry names this session (OpenClaw runs always have a session key). */
async function sessionKeyFromStore(loaded: LoadedSession): Promise<string | null> {
  if (!loaded.path) return null;
  try {
    const { store } = await readSessionStore(join(dirname(loaded.path), 'sessions.json'));
    for (const [key, entry] of Object.entries(store)) if (entry.sessionId === loaded.header.id) return key;
  } catch {
    // no store next to the file
  }
  return null;
}

/** Default child lookup: the sessions.json beside the parent transcript maps the child key to its transcript. */
function childResolverFor(loaded: LoadedSession): (key: string) => Promise<LoadedSession | null> {
  return async (childSessionKey) => {
    if (!loaded.path) return null;
    const dir = dirname(loaded.path);
    let entry;
    try {
      entry = (await readSessionStore(join(dir, 'sessions.json'))).store[childSessionKey];
    } catch {
      return null;
    }
    if (!entry) return null;
    const file = entry.sessionFile
      ? entry.sessionFile.startsWith('/')
        ? entry.sessionFile
        : join(dir, entry.sessionFile)
      : join(dir, `${entry.sessionId}.jsonl`);
    try {
      return await readSessionFile(file, { mode: 'tolerant' });
    } catch {
      return null;
    }
  };
}

interface RunningLane {
  runner: LaneRunner;
  record: LaneRecord;
  session: PreparedSession;
}

export async function replaySession(options: ReplayOptions): Promise<Recording> {
  const started = performance.now();
  const loaded =
    typeof options.session === 'string'
      ? await readSessionFile(options.session, { mode: 'tolerant' })
      : options.session;
  if (options.lanes.length === 0)
    throw new Error(
      'replaySession needs at least one lane (for example { engine: { kind: "legacy" }, contextWindow: 32000 }).',
    );

  const model = sessionModel(loaded);
  const state = new ReplayState({
    encoding: encodingForModel(model?.modelId),
    systemPrompt: options.systemPrompt ?? '',
    checkDeterminism: options.checkDeterminism === true,
    ...(options.driftThreshold !== undefined ? { driftThreshold: options.driftThreshold } : {}),
    honourRecordedCompactions: options.honourRecordedCompactions === true,
    ...(options.manualCompactions ? { manualCompactions: options.manualCompactions } : {}),
    resolveChildSession: options.resolveChildSession ?? childResolverFor(loaded),
  });
  const summarizer = options.summarizer ?? createDeterministicSummarizer();
  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'contextscope-replay-'));
  mkdirSync(workDir, { recursive: true });
  const removeWorkDir = options.workDir === undefined && options.keepWorkDir !== true;
  const writeFiles = (options.transcriptFiles ?? 'write') === 'write';
  const maxDepth = options.maxSubagentDepth ?? 3;
  const replaySubagents = options.replaySubagents !== false;

  const lanes: LaneRecord[] = [];
  const turns: Record<string, TurnRecord[]> = {};
  const events: ReplayEvent[] = [];
  const findings: Finding[] = [];
  const childSessions: Record<string, SessionInfo> = {};
  const groups: LaneGroup[] = [];
  const allRunners: LaneRunner[] = [];
  const usedIds = new Set<string>();

  const uniqueId = (base: string, parent?: string) => {
    const slug = parent ? `${parent}/${laneSlug(base)}` : laneSlug(base);
    let id = slug;
    for (let n = 2; usedIds.has(id); n++) id = `${slug}#${n}`;
    usedIds.add(id);
    return id;
  };

  const checkAbort = () => {
    if (options.signal?.aborted) throw new ReplayAbortedError();
  };

  /** Lane-level events (no turn) for quarantines that happened during engine resolution. */
  const flushUnattributed = (runner: LaneRunner) => {
    const group = runner.group;
    const pending = group.routing.unattributed.splice(0);
    if (pending.length === 0) return;
    const draft = runner.newDraft(null);
    for (const q of pending) recordLaneQuarantine(draft, runner.id, q);
    events.push(...draft.events);
  };
  const recordLaneQuarantine = (draft: ReturnType<LaneRunner['newDraft']>, laneId: string, q: QuarantineLogEntry) => {
    draft.addEvent({
      type: 'quarantine',
      engineId: q.engineId,
      ...(q.owner ? { owner: q.owner } : {}),
      operation: q.operation,
      reason: q.reason,
      failedAt: q.failedAt,
    });
    const laneError = lanes.find((l) => l.id === laneId)?.error;
    findings.push({
      code: 'quarantined',
      severity: FINDING_SEVERITY.quarantined,
      lane: laneId,
      turn: null,
      message:
        `Context engine "${q.engineId}" failed during ${q.operation}: ${q.reason}. The lane runs on "legacy" for the whole replay. ` +
        (laneError ? laneError : `Fix the ${q.operation} failure and replay again.`),
    });
  };

  const startLane = async (
    laneId: string,
    group: LaneGroup,
    session: PreparedSession,
    sessionKey: string | null,
    depth: number,
    laneDir: string,
  ): Promise<LaneRunner> => {
    const header: SessionHeader = { ...session.loaded.header };
    const transcript = new LaneTranscript({
      header,
      sessionFile: join(laneDir, 'sessions', `${fsSafe(header.id)}.jsonl`),
      writeFile: writeFiles,
      // the built-in legacy engine works on the live transcript and never reads the file
      deferWrites: group.source === 'legacy',
    });
    group.transcripts.set(transcript.sessionId, transcript);
    group.transcripts.set(transcript.sessionFile, transcript);
    for (const entry of session.split.prelude) {
      if (entry.type === 'compaction' && !state.honourRecordedCompactions) continue;
      transcript.appendRecorded(entry);
    }
    const engine = await group.runtime.resolveContextEngine(group.config, {
      agentDir: group.agentDir,
      workspaceDir: group.workspaceDir,
    });
    const runner = new LaneRunner(state, {
      id: laneId,
      group,
      session,
      transcript,
      engine: new RecordedEngine(engine),
      sessionKey,
      depth,
    });
    allRunners.push(runner);
    flushUnattributed(runner);
    return runner;
  };

  const runLaneTurn = async (running: RunningLane, index: number) => {
    const turn = running.session.split.turns[index];
    const { record, findings: turnFindings } = await running.runner.runTurn(turn);
    (turns[running.record.id] ??= []).push(record);
    running.record.turnCount++;
    findings.push(...turnFindings);
    options.onTurn?.(record);
    options.onProgress?.({
      lane: running.record.id,
      turn: index,
      total: running.session.split.turns.length,
      ...(running.record.parentLane ? { parentLane: running.record.parentLane } : {}),
    });
  };

  state.replayChild = async (
    parent: LaneRunner,
    spawn: RecordedSpawn,
    spawnTurn: number,
  ): Promise<ChildReplayOutcome> => {
    if (!replaySubagents || !spawn.childSessionKey || parent.depth + 1 > maxDepth) return { finished: false };
    const childLoaded = await state.resolveChildSession(spawn.childSessionKey);
    if (!childLoaded) return { finished: false };
    const session = prepareSession(childLoaded, state.table);
    childSessions[session.info.sessionId] = session.info;
    const parentRecord = lanes.find((l) => l.id === parent.id)!;
    const laneId = uniqueId((spawn.childSessionKey.split(':').pop() ?? 'child').slice(0, 8), parent.id);
    const record: LaneRecord = {
      ...parentRecord,
      id: laneId,
      label: `${parentRecord.label} › ${spawn.childSessionKey}`,
      sessionId: session.info.sessionId,
      sessionKey: spawn.childSessionKey,
      parentLane: parent.id,
      childSessionKey: spawn.childSessionKey,
      spawnedAtTurn: spawnTurn,
      turnCount: 0,
    };
    delete record.error;
    lanes.push(record);
    turns[laneId] = [];
    const runner = await startLane(
      laneId,
      parent.group,
      session,
      spawn.childSessionKey,
      parent.depth + 1,
      join(workDir, fsSafe(laneId)),
    );
    const running: RunningLane = { runner, record, session };
    for (let t = 0; t < session.split.turns.length; t++) {
      checkAbort();
      await runLaneTurn(running, t);
    }
    findings.push(...(await runner.flushDeferred()));
    await finishLane(runner);
    const last = session.split.turns[session.split.turns.length - 1];
    const finished =
      last !== undefined && recordedTurnOutcome(last).outcome === 'ok' && lastStopReason(last.entries) === 'stop';
    return { laneId, finished };
  };

  /** End of a run: sweep children that never finished, dispose the engine. */
  const finishLane = async (runner: LaneRunner) => {
    // deferred lane files are written when the caller keeps the work folder to look at them
    if (!removeWorkDir) runner.transcript.flush();
    const draft = runner.newDraft(null);
    await runner.within(draft, async () => {
      await sweepPendingSubagents(runner, draft);
      if (runner.engine.has('dispose')) await runner.engine.call(draft, 'dispose', undefined);
    });
    events.push(...draft.events);
    for (const q of draft.quarantines) {
      findings.push({
        code: 'quarantined',
        severity: FINDING_SEVERITY.quarantined,
        lane: runner.id,
        turn: null,
        message: `Context engine "${q.engineId}" failed during ${q.operation}: ${q.reason}.`,
      });
    }
  };

  let replayRoot: PreparedSession | undefined;
  // Every lane's engine is set up at once, before the session is prepared: engine hosts start in their own
  // processes while this thread reads the session.
  const pendingLanes = options.lanes.map((laneConfig) => {
    const label = defaultLabel(laneConfig);
    const laneId = uniqueId(laneConfig.id ?? label);
    const laneDir = join(workDir, fsSafe(laneId));
    mkdirSync(laneDir, { recursive: true });
    const setup = createLaneGroup(laneConfig, laneDir, {
      summarizer,
      model: model?.modelId ?? null,
      provider: model?.provider ?? null,
      ...(options.plugins ? { plugins: options.plugins } : {}),
    });
    // a setup that finishes after a failure elsewhere is still closed (see finally)
    void setup.then(
      (done) => groups.push(done.group),
      () => undefined,
    );
    return { laneConfig, label, laneId, laneDir, setup };
  });
  try {
    const root = prepareSession(loaded, state.table);
    const rootKey =
      options.sessionKey !== undefined
        ? options.sessionKey
        : ((await sessionKeyFromStore(loaded)) ?? 'agent:main:main');
    replayRoot = root;
    // Lanes over the root session.
    const rootLanes: RunningLane[] = [];
    for (const { laneConfig, label, laneId, laneDir, setup: pendingSetup } of pendingLanes) {
      const setup = await pendingSetup;
      const record: LaneRecord = {
        id: laneId,
        label,
        spec:
          laneConfig.spec ??
          (laneConfig.engine.kind === 'plugin'
            ? `plugin:${laneConfig.engine.plugin}`
            : laneConfig.engine.kind === 'legacy'
              ? 'legacy'
              : `in-process:${laneConfig.engine.engineId}`),
        source: setup.group.source,
        requestedEngineId: setup.group.requestedEngineId,
        ...(setup.pluginId ? { pluginId: setup.pluginId } : {}),
        ...(setup.pluginPath ? { pluginPath: setup.pluginPath } : {}),
        contextWindow: laneConfig.contextWindow,
        reserveTokens: setup.group.settings.reserveTokens,
        keepRecentTokens: setup.group.settings.keepRecentTokens,
        host: {
          id: setup.group.host.id,
          label: setup.group.host.label,
          capabilities: [...setup.group.host.capabilities],
        },
        sessionId: root.info.sessionId,
        sessionKey: rootKey,
        ...(setup.error ? { error: setup.error } : {}),
        turnCount: 0,
      };
      lanes.push(record);
      turns[laneId] = [];
      findings.push(
        ...laneSettingsFindings({
          lane: laneId,
          contextWindow: laneConfig.contextWindow,
          reserveTokens: setup.group.settings.reserveTokens,
          keepRecentTokens: setup.group.settings.keepRecentTokens,
          compactionEnabled: setup.group.compactionEnabled,
          ...(setup.pluginHooks ? { pluginHooks: setup.pluginHooks } : {}),
        }),
      );
      const runner = await startLane(laneId, setup.group, root, rootKey, 0, laneDir);
      rootLanes.push({ runner, record, session: root });
    }

    // Each lane runs its turns on its own: a lane whose engine runs in an engine host waits for that process
    // while the others keep this thread busy. The first failure stops the other lanes at their next turn.
    let failure: { error: unknown } | undefined;
    const runRootLane = async (lane: RunningLane) => {
      for (let t = 0; t < root.split.turns.length && !failure; t++) {
        checkAbort();
        // An in-process engine's turn never waits on I/O, so without this a lane could run many turns in one
        // go while an engine host's reply waits; yielding lets replies in between turns.
        await yieldToEventLoop();
        await runLaneTurn(lane, t);
      }
    };
    await Promise.all(
      rootLanes.map((lane) =>
        runRootLane(lane).catch((error: unknown) => {
          failure ??= { error };
        }),
      ),
    );
    if (failure) throw failure.error;
    for (const lane of rootLanes) findings.push(...(await lane.runner.flushDeferred()));
    for (const lane of rootLanes) await finishLane(lane.runner);
    await state.table.ensureAll();
  } finally {
    await state.counter.close();
    await Promise.allSettled(pendingLanes.map((lane) => lane.setup));
    for (const group of groups) {
      for (const close of group.closers) {
        try {
          await close();
        } catch {
          // a host that fails to close must not hide the replay's own result or error
        }
      }
    }
    if (removeWorkDir) rmSync(workDir, { recursive: true, force: true });
  }

  // Events of the lane-level drafts are stamped in order; keep turn arrays in turn order. Lanes ran
  // concurrently, so put what they appended in an order that does not depend on timing: lanes by root lane (in
  // the order given) with their subagent lanes in spawn order, findings by turn, then lane.
  for (const id of Object.keys(turns)) turns[id].sort((a, b) => a.turn - b.turn);
  const laneById = new Map(lanes.map((l) => [l.id, l]));
  const rootOrder = new Map(lanes.filter((l) => !l.parentLane).map((l, i) => [l.id, i]));
  const rootIndex = new Map(
    lanes.map((lane) => {
      let current = lane;
      while (current.parentLane && laneById.has(current.parentLane)) current = laneById.get(current.parentLane)!;
      return [lane.id, rootOrder.get(current.id) ?? 0];
    }),
  );
  lanes.sort((a, b) => rootIndex.get(a.id)! - rootIndex.get(b.id)!);
  const laneOrder = new Map(lanes.map((l, i) => [l.id, i]));
  findings.sort(
    (a, b) =>
      (a.turn ?? -1) - (b.turn ?? -1) || (laneOrder.get(a.lane ?? '') ?? -1) - (laneOrder.get(b.lane ?? '') ?? -1),
  );
  const stats = state.table.stats();
  return {
    schemaVersion: RECORDING_SCHEMA_VERSION,
    createdAt: new Date().toISOString(),
    generator: { name: PACKAGE_NAME, version: PACKAGE_VERSION },
    session: replayRoot!.info,
    childSessions,
    options: {
      honourRecordedCompactions: state.honourRecordedCompactions,
      checkDeterminism: state.checkDeterminism,
      driftThreshold: state.driftThreshold,
      systemPrompt: state.systemPrompt,
      transcriptFiles: writeFiles ? 'write' : 'none',
    },
    lanes,
    messages: state.table.toRecord(),
    turns,
    events,
    findings,
    stats: {
      wallMs: performance.now() - started,
      tokenizer: { hits: stats.hits, misses: stats.misses, charsTokenized: stats.charsTokenized },
    },
  };
}

function lastStopReason(entries: readonly import('../contract').SessionEntry[]): string | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.type === 'message' && entry.message.role === 'assistant') return entry.message.stopReason;
  }
  return undefined;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

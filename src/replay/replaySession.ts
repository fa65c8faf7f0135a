/**
 * `replaySession`: replays a recorded OpenClaw session through several lanes at once and returns the Recording.
 *
 * Each lane gets its own runtime, its own engine (resolved once for the whole replay and reused, as the embedded
 * runner resolves once per run), its own transcript and folders. Lanes advance turn by turn on their own, so a
 * plugin lane's engine host works while the parent process handles the other lanes. Subagent children are
 * replayed as child lanes inside the parent turn that spawned them. Nothing calls a model: each turn's recorded
 * output is appended to every lane.
 */
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../common';
import { RECORDING_SCHEMA_VERSION, type LaneRecord, type Recording } from '../contract/recording';
import { createDeterministicSummarizer } from '../summarize';
import { encodingForModel } from '../tokens';
import {
  createChildSessionResolver,
  readSessionFile,
  readSessionTrajectory,
  sessionKeyOf,
  type LoadedSession,
} from '../transcripts';
import { laneSettingsFindings } from './findings/laneSettingsFindings';
import { drainAccessDenials, hostUnconfinedFindings } from './findings/sandboxFindings';
import { sessionProblemFindings } from './findings/sessionProblemFindings';
import { providerErrorFindings } from './findings/providerErrorFindings';
import type { LaneGroup } from './lane/laneGroup';
import { toolCallIdDecision } from './lane/toolCallIds';
import { defaultLabel, fsSafe, laneSpecText } from './lane/laneNames';
import { laneHookPlan } from './lane/hooks';
import { createLaneGroup, type LaneGroupSetup } from './lane/laneSetup';
import { ReplayState } from './lane/replayState';
import type { ReplayLaneConfig, ReplayOptions } from './lane/replayTypes';
import { orderRecordingParts, renumberEventSeqs } from './recording/orderRecording';
import { ReplayRun, type RunningLane } from './replayRun';
import { prepareSession, type PreparedSession } from './session/prepareSession';
import { sessionModel } from './session/sessionLookups';
import { withWireViews } from './wire/attachWireViews';
import { chooseReplayVersion, type VersionChoice } from './settings/inferOpenClawVersion';
import { promptWrappersOf } from './trajectory/promptWrappers';
import { recordedLaneOf } from './trajectory/replayRecordedLane';

export { ReplayAbortedError } from './replayRun';

interface PendingLane {
  laneConfig: ReplayLaneConfig;
  label: string;
  laneId: string;
  laneDir: string;
  setup: Promise<LaneGroupSetup>;
}

/** A spawn's child session, or null when it cannot be read: the spawn is then replayed without its child lane. */
function childSessionsOf(loaded: LoadedSession): (key: string) => Promise<LoadedSession | null> {
  const resolve = createChildSessionResolver(loaded);
  return (key) => resolve(key).catch(() => null);
}

function createReplayState(
  options: ReplayOptions,
  loaded: LoadedSession,
  modelId: string | undefined,
  versionChoice: VersionChoice,
): ReplayState {
  return new ReplayState({
    encoding: encodingForModel(modelId),
    systemPrompt: options.systemPrompt ?? '',
    checkDeterminism: options.checkDeterminism === true,
    ...(options.driftThreshold !== undefined ? { driftThreshold: options.driftThreshold } : {}),
    honourRecordedCompactions: options.honourRecordedCompactions === true,
    versionChoice,
    ...(options.settingSources ? { settingSources: options.settingSources } : {}),
    ...(options.manualCompactions ? { manualCompactions: options.manualCompactions } : {}),
    resolveChildSession: options.resolveChildSession ?? childSessionsOf(loaded),
  });
}

/**
 * Every lane's engine is set up at once, before the session is prepared: engine hosts start in their own
 * processes while this thread reads the session. Groups that finish setting up are collected in `groups` (closed
 * at the end, also after a failure elsewhere).
 */
function setUpLanes(
  run: ReplayRun,
  options: ReplayOptions,
  model: { provider: string; modelId: string } | null,
  groups: LaneGroup[],
): PendingLane[] {
  const summarizer = options.summarizer ?? createDeterministicSummarizer();
  return options.lanes.map((laneConfig) => {
    const label = defaultLabel(laneConfig);
    const laneId = run.laneIds.next(laneConfig.id ?? label);
    const laneDir = join(run.settings.workDir, fsSafe(laneId));
    mkdirSync(laneDir, { recursive: true });
    const setup = createLaneGroup(laneConfig, laneDir, {
      summarizer,
      model: model?.modelId ?? null,
      provider: model?.provider ?? null,
      profile: run.state.profile,
      ...(options.plugins ? { plugins: options.plugins } : {}),
    });
    void setup.then(
      (done) => groups.push(done.group),
      () => undefined,
    );
    return { laneConfig, label, laneId, laneDir, setup };
  });
}

function rootLaneRecord(
  pending: PendingLane,
  setup: LaneGroupSetup,
  root: PreparedSession,
  rootKey: string | null,
): LaneRecord {
  const { group } = setup;
  return {
    id: pending.laneId,
    label: pending.label,
    spec: laneSpecText(pending.laneConfig),
    source: group.source,
    requestedEngineId: group.requestedEngineId,
    ...(setup.pluginId ? { pluginId: setup.pluginId } : {}),
    ...(setup.pluginPath ? { pluginPath: setup.pluginPath } : {}),
    contextWindow: pending.laneConfig.contextWindow,
    reserveTokens: group.settings.reserveTokens,
    keepRecentTokens: group.settings.keepRecentTokens,
    host: { id: group.host.id, label: group.host.label, capabilities: [...group.host.capabilities] },
    sessionId: root.info.sessionId,
    sessionKey: rootKey,
    ...(setup.error ? { error: setup.error } : {}),
    ...(group.callTimeoutMs !== undefined ? { callTimeoutMs: group.callTimeoutMs } : {}),
    turnCount: 0,
  };
}

async function startRootLanes(
  run: ReplayRun,
  pendingLanes: PendingLane[],
  root: PreparedSession,
  rootKey: string | null,
): Promise<RunningLane[]> {
  const rootLanes: RunningLane[] = [];
  for (const pending of pendingLanes) {
    const setup = await pending.setup;
    const record = rootLaneRecord(pending, setup, root, rootKey);
    run.addLane(record);
    run.findings.push(
      ...laneSettingsFindings({
        lane: pending.laneId,
        contextWindow: pending.laneConfig.contextWindow,
        reserveTokens: setup.group.settings.reserveTokens,
        keepRecentTokens: setup.group.settings.keepRecentTokens,
        compactionEnabled: setup.group.compactionEnabled,
        ...(setup.pluginHooks
          ? { pluginHooks: laneHookPlan({ group: setup.group, state: run.state })?.notRun ?? [] }
          : {}),
      }),
    );
    // the engine host's confinement, and what its permission model refused while the plugin loaded
    run.findings.push(
      ...hostUnconfinedFindings(pending.laneId, setup.group.sandbox),
      ...drainAccessDenials(pending.laneId, null, setup.group.sandbox),
    );
    const runner = await run.startLane(pending.laneId, setup.group, root, rootKey, 0, pending.laneDir);
    rootLanes.push({ runner, record, session: root });
  }
  return rootLanes;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Each lane runs its turns on its own: a lane whose engine runs in an engine host waits for that process while
 * the others keep this thread busy. The first failure stops the other lanes at their next turn.
 */
async function runRootLanes(run: ReplayRun, rootLanes: RunningLane[], root: PreparedSession): Promise<void> {
  let failure: { error: unknown } | undefined;
  const runRootLane = async (lane: RunningLane) => {
    for (let t = 0; t < root.split.turns.length && !failure; t++) {
      run.checkAbort();
      // An in-process engine's turn never waits on I/O, so without this a lane could run many turns in one go
      // while an engine host's reply waits; yielding lets replies in between turns.
      await yieldToEventLoop();
      await run.runLaneTurn(lane, t);
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
  for (const lane of rootLanes) run.findings.push(...(await lane.runner.flushDeferred()));
  for (const lane of rootLanes) await run.finishLane(lane.runner);
  await run.state.table.ensureAll();
}

async function closeLaneGroups(pendingLanes: PendingLane[], groups: LaneGroup[]): Promise<void> {
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
}

/** The Recording of what a replay has done so far, on copies (the run keeps growing). */
function partialRecording(
  run: ReplayRun,
  root: PreparedSession,
  startedAt: number,
  promptWrappers: ReadonlyMap<string, string>,
): Recording {
  const turns = Object.fromEntries(Object.entries(run.turns).map(([lane, records]) => [lane, [...records]]));
  const copy = {
    lanes: run.lanes.map((lane) => ({ ...lane })),
    turns,
    events: [...run.events],
    findings: [...run.findings],
  };
  return withWireViews(toRecording(Object.assign(Object.create(run) as ReplayRun, copy), root, startedAt), {
    promptWrappers,
  });
}

function toRecording(
  run: ReplayRun,
  root: PreparedSession,
  startedAt: number,
  trajectory?: Recording['trajectory'],
): Recording {
  orderRecordingParts(run.lanes, run.turns, run.findings);
  renumberEventSeqs(run.lanes, run.turns, run.events);
  run.listPools.shareAll(run.turns);
  const { state } = run;
  const stats = state.table.stats();
  return {
    schemaVersion: RECORDING_SCHEMA_VERSION,
    createdAt: new Date().toISOString(),
    generator: { name: PACKAGE_NAME, version: PACKAGE_VERSION },
    session: root.info,
    // children are found as lanes reach their spawns: sorted, so the order does not depend on timing
    childSessions: Object.fromEntries(
      Object.entries(run.childSessions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ),
    options: {
      honourRecordedCompactions: state.honourRecordedCompactions,
      openclawVersion: state.profile.version,
      openclawVersionChoice: {
        how: state.versionChoice.how,
        ...(state.versionChoice.from ? { from: state.versionChoice.from } : {}),
      },
      openclawProfile: { line: state.profile.line, changes: state.profile.changes },
      ...(state.settingSources ? { settingSources: { ...state.settingSources } } : {}),
      checkDeterminism: state.checkDeterminism,
      driftThreshold: state.driftThreshold,
      systemPrompt: state.systemPrompt,
      transcriptFiles: run.settings.writeFiles ? 'write' : 'none',
    },
    lanes: run.lanes,
    messages: state.table.toRecord([
      root.info.messageKeys,
      ...Object.keys(run.childSessions)
        .sort()
        .map((id) => run.childSessions[id]!.messageKeys),
    ]),
    turns: run.turns,
    events: run.events,
    findings: run.findings,
    ...(trajectory ? { trajectory } : {}),
    stats: {
      wallMs: performance.now() - startedAt,
      tokenizer: { hits: stats.hits, misses: stats.misses, charsTokenized: stats.charsTokenized },
    },
  };
}

export async function replaySession(options: ReplayOptions): Promise<Recording> {
  const startedAt = performance.now();
  const loaded =
    typeof options.session === 'string'
      ? await readSessionFile(options.session, { mode: 'tolerant' })
      : options.session;
  if (options.lanes.length === 0)
    throw new Error(
      'replaySession needs at least one lane (for example { engine: { kind: "legacy" }, contextWindow: 32000 }).',
    );
  const model = sessionModel(loaded);
  const state = createReplayState(
    options,
    loaded,
    model?.modelId,
    options.openclawVersionChoice ?? (await chooseReplayVersion(loaded, options.openclawVersion)),
  );
  const workDir = options.workDir ?? mkdtempSync(join(tmpdir(), 'contextscope-replay-'));
  mkdirSync(workDir, { recursive: true });
  const removeWorkDir = options.workDir === undefined && options.keepWorkDir !== true;
  const writeFiles = (options.transcriptFiles ?? 'write') === 'write';
  const run = new ReplayRun(state, options, { workDir, writeFiles, removeWorkDir });

  const groups: LaneGroup[] = [];
  const pendingLanes = setUpLanes(run, options, model, groups);
  let root: PreparedSession;
  let trajectory: Recording['trajectory'];
  let promptWrappers: ReadonlyMap<string, string> = new Map();
  try {
    root = prepareSession(loaded, state.table, toolCallIdDecision(state, 0));
    const prepared = root;
    // read before the turns run, so streamed turns are sent with what the trajectory says OpenClaw wrapped around them
    const recorded = options.recordedTrajectory !== false ? await readSessionTrajectory(loaded) : null;
    if (recorded) promptWrappers = promptWrappersOf(recorded.events, root);
    options.onLive?.({
      message: (key) => state.table.recordOf(key),
      lanes: () => run.lanes.map((lane) => ({ ...lane })),
      partial: () => partialRecording(run, prepared, startedAt, promptWrappers),
    });
    // an explicit null means "no session key" (runs without one exist)
    const rootKey =
      options.sessionKey !== undefined ? options.sessionKey : ((await sessionKeyOf(loaded)) ?? 'agent:main:main');
    const rootLanes = await startRootLanes(run, pendingLanes, root, rootKey);
    await runRootLanes(run, rootLanes, root);
    run.findings.push(...providerErrorFindings(run.lanes, run.turns, state.table));
    run.findings.push(...sessionProblemFindings(run.lanes, loaded.path, loaded.problems));
    trajectory = await recordedLaneOf(run, root, recorded);
  } catch (error) {
    // a cancelled replay's caller may keep what was done: its messages get their exact counts while the counter runs
    if (options.onLive && options.signal?.aborted) await state.table.ensureAll().catch(() => undefined);
    throw error;
  } finally {
    await state.counter.close();
    await closeLaneGroups(pendingLanes, groups);
    if (removeWorkDir) rmSync(workDir, { recursive: true, force: true });
  }
  return withWireViews(toRecording(run, root, startedAt, trajectory), { promptWrappers });
}

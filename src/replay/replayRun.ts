/**
 * The mutable state of one replay — its lanes, turn records, events, findings and child sessions — and the steps
 * that grow it: starting a lane, running one of its turns, replaying a subagent child as a child lane, finishing
 * a lane. `replaySession` creates one, runs the root lanes through it and turns it into the Recording.
 */
import { join } from 'node:path';
import type { SessionHeader } from '../contract';
import type { Finding, LaneRecord, ReplayEvent, SessionInfo, TurnRecord } from '../contract/recording';
import { FINDING_SEVERITY } from './findings/computeTurnFindings';
import { drainAccessDenials } from './findings/sandboxFindings';
import type { ChildReplayOutcome, Lane } from './lane/laneContext';
import type { LaneGroup } from './lane/laneGroup';
import { fsSafe, LaneIds } from './lane/laneNames';
import { LaneRunner } from './lane/laneRunner';
import { LaneTranscript } from './lane/laneTranscript';
import type { ReplayState } from './lane/replayState';
import type { ReplayOptions } from './lane/replayTypes';
import { sweepPendingSubagents } from './lane/subagentLifecycle';
import { LaneListPools } from './recording/laneListPools';
import { RecordedEngine } from './recording/recordEngineCalls';
import { quarantineOnContractFailure } from './lane/resultContract';
import type { QuarantineLogEntry, TurnDraft } from './recording/turnDraft';
import { prepareSession, type PreparedSession } from './session/prepareSession';
import { toolCallIdDecision } from './lane/toolCallIds';
import { lastStopReason } from './session/sessionLookups';
import { recordedTurnOutcome } from './session/sessionTurns';
import type { RecordedSpawn } from './session/subagentSpawns';

export class ReplayAbortedError extends Error {
  readonly code = 'replay_aborted';
  constructor() {
    super('The replay was cancelled.');
    this.name = 'AbortError';
  }
}

export interface RunningLane {
  runner: LaneRunner;
  record: LaneRecord;
  session: PreparedSession;
}

export interface ReplayRunSettings {
  workDir: string;
  /** lane transcripts are written to the work folder (else kept in memory) */
  writeFiles: boolean;
  /** the work folder is removed at the end (deferred lane files need not be written) */
  removeWorkDir: boolean;
}

export class ReplayRun {
  readonly lanes: LaneRecord[] = [];
  readonly turns: Record<string, TurnRecord[]> = {};
  readonly events: ReplayEvent[] = [];
  readonly findings: Finding[] = [];
  readonly childSessions: Record<string, SessionInfo> = {};
  readonly laneIds = new LaneIds();
  /** each lane's turn lists as runs over its messages, not a whole array per turn */
  readonly listPools = new LaneListPools();

  constructor(
    readonly state: ReplayState,
    private readonly options: ReplayOptions,
    readonly settings: ReplayRunSettings,
  ) {}

  checkAbort(): void {
    if (this.options.signal?.aborted) throw new ReplayAbortedError();
  }

  addLane(record: LaneRecord): void {
    this.lanes.push(record);
    this.turns[record.id] = [];
  }

  /** The lane's transcript (with the session's prelude), its engine resolved once, and its runner. */
  async startLane(
    laneId: string,
    group: LaneGroup,
    session: PreparedSession,
    sessionKey: string | null,
    depth: number,
    laneDir: string,
  ): Promise<LaneRunner> {
    const header: SessionHeader = { ...session.loaded.header };
    const transcript = new LaneTranscript({
      header,
      sessionFile: join(laneDir, 'sessions', `${fsSafe(header.id)}.jsonl`),
      writeFile: this.settings.writeFiles,
      // the built-in legacy engine works on the live transcript and never reads the file
      deferWrites: group.source === 'legacy',
      idSeed: laneId,
    });
    group.transcripts.set(transcript.sessionId, transcript);
    group.transcripts.set(transcript.sessionFile, transcript);
    for (const entry of session.split.prelude) {
      if (entry.type === 'compaction' && !this.state.honourRecordedCompactions) continue;
      transcript.appendRecorded(entry);
    }
    const engine = await group.runtime.resolveContextEngine(group.config, {
      agentDir: group.agentDir,
      workspaceDir: group.workspaceDir,
    });
    const runner = new LaneRunner(this.state, {
      id: laneId,
      group,
      session,
      transcript,
      // the built-in legacy engine's results are not checked (they are the host's own messages)
      engine: new RecordedEngine(
        engine,
        group.source === 'legacy' ? undefined : quarantineOnContractFailure(group.runtime, engine),
      ),
      sessionKey,
      depth,
      replayChild: (parent, spawn, spawnTurn) => this.replayChild(parent, spawn, spawnTurn),
    });
    this.flushUnattributed(runner);
    return runner;
  }

  async runLaneTurn(running: RunningLane, index: number): Promise<void> {
    const turn = running.session.split.turns[index];
    const { record, findings } = await running.runner.runTurn(turn);
    this.listPools.share(running.record.id, record);
    this.turns[running.record.id].push(record);
    running.record.turnCount++;
    this.findings.push(...findings);
    // what the engine host's permission model refused during the turn (the host reports it before the call's answer)
    this.findings.push(...drainAccessDenials(running.record.id, index, running.runner.group.sandbox));
    this.options.onTurn?.(record);
    this.options.onProgress?.({
      lane: running.record.id,
      turn: index,
      total: running.session.split.turns.length,
      ...(running.record.parentLane ? { parentLane: running.record.parentLane } : {}),
    });
  }

  /** An accepted spawn's child session, replayed as a subagent lane of `parent` inside the spawning turn. */
  async replayChild(parent: Lane, spawn: RecordedSpawn, spawnTurn: number): Promise<ChildReplayOutcome> {
    const maxDepth = this.options.maxSubagentDepth ?? 3;
    if (this.options.replaySubagents === false || !spawn.childSessionKey || parent.depth + 1 > maxDepth) {
      return { finished: false };
    }
    const childLoaded = await this.state.resolveChildSession(spawn.childSessionKey);
    if (!childLoaded) return { finished: false };
    const session = prepareSession(childLoaded, this.state.table, toolCallIdDecision(this.state, parent.depth + 1));
    this.childSessions[session.info.sessionId] = session.info;
    const laneId = this.laneIds.next((spawn.childSessionKey.split(':').pop() ?? 'child').slice(0, 8), parent.id);
    const record = this.childLaneRecord(parent.id, laneId, session, spawn.childSessionKey, spawnTurn);
    this.addLane(record);
    const runner = await this.startLane(
      laneId,
      parent.group,
      session,
      spawn.childSessionKey,
      parent.depth + 1,
      join(this.settings.workDir, fsSafe(laneId)),
    );
    const running: RunningLane = { runner, record, session };
    for (let t = 0; t < session.split.turns.length; t++) {
      this.checkAbort();
      await this.runLaneTurn(running, t);
    }
    this.findings.push(...(await runner.flushDeferred()));
    await this.finishLane(runner);
    const last = session.split.turns[session.split.turns.length - 1];
    const finished =
      last !== undefined && recordedTurnOutcome(last).outcome === 'ok' && lastStopReason(last.entries) === 'stop';
    return { laneId, finished };
  }

  private childLaneRecord(
    parentId: string,
    laneId: string,
    session: PreparedSession,
    childSessionKey: string,
    spawnTurn: number,
  ): LaneRecord {
    const parentRecord = this.lanes.find((l) => l.id === parentId)!;
    const record: LaneRecord = {
      ...parentRecord,
      id: laneId,
      label: `${parentRecord.label} › ${childSessionKey}`,
      sessionId: session.info.sessionId,
      sessionKey: childSessionKey,
      parentLane: parentId,
      childSessionKey,
      spawnedAtTurn: spawnTurn,
      turnCount: 0,
    };
    delete record.error;
    return record;
  }

  /** End of a run: sweep children that never finished, dispose the engine. */
  async finishLane(runner: LaneRunner): Promise<void> {
    // deferred lane files are written when the caller keeps the work folder to look at them
    if (!this.settings.removeWorkDir) runner.transcript.flush();
    const draft = runner.newDraft(null);
    await runner.within(draft, async () => {
      await sweepPendingSubagents(runner, draft);
      if (runner.engine.has('dispose')) await runner.engine.call(draft, 'dispose', undefined);
    });
    this.events.push(...draft.events);
    this.findings.push(...drainAccessDenials(runner.id, null, runner.group.sandbox));
    this.reportDegradedTurns(runner);
    for (const q of draft.quarantines) {
      this.findings.push({
        code: 'quarantined',
        severity: FINDING_SEVERITY.quarantined,
        lane: runner.id,
        turn: null,
        message: `Context engine "${q.engineId}" failed during ${q.operation}: ${q.reason}.`,
      });
    }
  }

  /** One lane-level finding for the logical turns that ran on legacy instead of the configured engine. */
  private reportDegradedTurns(runner: LaneRunner): void {
    const turns = this.turns[runner.id] ?? [];
    const degraded = turns.filter((t) => t.turnPath?.engine === 'legacy-fallback');
    if (degraded.length === 0) return;
    const reasons = [...new Set(degraded.map((t) => t.turnPath?.degradedReason ?? 'unknown'))].join('; ');
    const first = degraded[0]!.turn;
    this.findings.push({
      code: 'turn-degraded-to-legacy',
      severity: FINDING_SEVERITY['turn-degraded-to-legacy'],
      lane: runner.id,
      turn: null,
      message:
        `${degraded.length} of ${turns.length} turns ran on "legacy" instead of "${runner.group.requestedEngineId}" ` +
        `(first: turn ${first + 1}): ${reasons}. OpenClaw ${this.state.profile.version} needs ` +
        'transcriptSemantics {currentTurnFence: "before-current-turn-entry-v1", turnAdvancementIdempotency: ' +
        '"atomic-idempotent-v1"} and commitTurn() to run an engine; without them every turn falls back silently.',
    });
  }

  /** Lane-level events (no turn) for quarantines that happened during engine resolution. */
  private flushUnattributed(runner: LaneRunner): void {
    const pending = runner.group.routing.unattributed.splice(0);
    if (pending.length === 0) return;
    const draft = runner.newDraft(null);
    for (const q of pending) this.recordLaneQuarantine(draft, runner.id, q);
    this.events.push(...draft.events);
  }

  private recordLaneQuarantine(draft: TurnDraft, laneId: string, q: QuarantineLogEntry): void {
    draft.addEvent({
      type: 'quarantine',
      engineId: q.engineId,
      ...(q.owner ? { owner: q.owner } : {}),
      operation: q.operation,
      reason: q.reason,
      failedAt: q.failedAt,
    });
    const laneError = this.lanes.find((l) => l.id === laneId)?.error;
    this.findings.push({
      code: 'quarantined',
      severity: FINDING_SEVERITY.quarantined,
      lane: laneId,
      turn: null,
      message:
        `Context engine "${q.engineId}" failed during ${q.operation}: ${q.reason}. The lane runs on "legacy" for the whole replay. ` +
        (laneError ? laneError : `Fix the ${q.operation} failure and replay again.`),
    });
  }
}

/**
 * What the steps of a replayed turn need from their lane. `LaneRunner` implements it; the steps (steps/, the
 * compactions, the subagent lifecycle) depend on this interface only, so none of them imports the runner.
 */
import type {
  AgentMessage,
  CommitTurnParams,
  ContextEngine,
  ContextEngineRuntimeContext,
  ContextEngineRuntimeSettings,
  ContextEngineSessionTarget,
  MaintainReason,
  SubagentSpawnPreparation,
} from '../../contract';
import type { ClassifiedMessage } from '../recording/classifyProvenance';
import type { StoredMessage } from '../recording/messageTable';
import type { CallOutcome, RecordedEngine } from '../recording/recordEngineCalls';
import type { TurnDraft } from '../recording/turnDraft';
import type { PreparedSession } from '../session/prepareSession';
import type { RecordedSpawn } from '../session/subagentSpawns';
import type { LaneGroup } from './laneGroup';
import type { LaneTranscript } from './laneTranscript';
import type { ReplayState } from './replayState';

/** A call that threw (or gave a result the host cannot use) in a 2026.8+ turn, logged without a quarantine. */
export interface EngineFailure {
  method: string;
  message: string;
}

/** A spawned child whose end the lane has not seen yet (ended by the sweep at the end of the replay). */
export interface PendingSubagent {
  childSessionKey: string;
  mode: 'run' | 'session';
  cleanup: 'keep' | 'delete';
  spawnTurn: number;
}

export interface ChildReplayOutcome {
  /** the child lane, when the child transcript was found and replayed */
  laneId?: string;
  /** the child's run finished within the recording (its last assistant message stopped normally) */
  finished: boolean;
}

/** Replays the child session of an accepted spawn as a subagent lane of `parent` (set by the orchestrator). */
export type ReplayChild = (parent: Lane, spawn: RecordedSpawn, spawnTurn: number) => Promise<ChildReplayOutcome>;

export type PrepareSubagentSpawnParams = Parameters<NonNullable<ContextEngine['prepareSubagentSpawn']>>[0];

/** A turn's assembled context (OpenClaw's estimate and message count) and the estimate of the messages it added. */
export interface LastContext {
  engineId: string;
  tokens: number;
  count: number;
  appendedTokens: number;
}

export interface Lane {
  readonly id: string;
  readonly state: ReplayState;
  readonly group: LaneGroup;
  readonly session: PreparedSession;
  readonly transcript: LaneTranscript;
  readonly engine: RecordedEngine;
  /**
   * the engine the lane's slot selects, behind the runtime's quarantine proxy: OpenClaw's `/compact` resolves it
   * through `resolveContextEngine`, never through the logical turn (2026.9.6 embedded-agent-*.mjs
   * `compactEmbeddedAgentSessionPrepared`)
   */
  readonly configuredEngine: RecordedEngine;
  /**
   * the engine overflow recovery compacts on: the turn's; on 2026.8+ a turn on the configured engine calls it
   * without the quarantine proxy, as OpenClaw's logical turn does (9.6 `compactEmbeddedRunForRecovery` logs a
   * throw and goes on)
   */
  readonly overflowCompactor: RecordedEngine;
  /** the engine prepareSubagentSpawn and onSubagentEnded go to: the turn's, but behind the proxy on 2026.8+ */
  readonly slotEngine: RecordedEngine;
  readonly sessionKey: string | null;
  readonly depth: number;
  readonly pendingSubagents: PendingSubagent[];
  /** calls that threw in the running turn on a release line that logs them (2026.8+), for its finding */
  readonly engineFailures: EngineFailure[];
  /** a commitTurn that failed on 2026.8+: OpenClaw keeps it queued and retries it before the next turn */
  pendingCommit: CommitTurnParams | undefined;
  /** what the lane's last turn sent and added, for seeing an owning engine compact on its own (ownCompaction.ts) */
  lastContext: LastContext | undefined;
  /** where this lane compacted so far, as positions in the turn sequence (see recordedUsage.ts) */
  readonly compactionPositions: number[];
  /** `{sessionId, sessionKey?}` of the lane's current session (the successor after a rotation) */
  readonly sessionParams: { sessionId: string; sessionKey?: string };
  runtimeContext(extra?: Record<string, unknown>): ContextEngineRuntimeContext;
  /** the durable transcript target a 2026.8+ host passes (undefined on earlier releases or without a session key) */
  sessionTarget(): Required<Omit<ContextEngineSessionTarget, 'threadId'>> | undefined;
  /** `{sessionTarget}` when the host passes one, else `{}` (spread into bootstrap, maintain and compact params) */
  targetParams(): { sessionTarget?: ContextEngineSessionTarget };
  runtimeSettings(promptTokenBudget: number): ContextEngineRuntimeSettings;
  /** the lane transcript's model context through the history pipeline (object keys remembered for provenance) */
  pipelineContext(): { messages: AgentMessage[]; removed: number };
  /** provenance of assembled messages, interned in the message table */
  classify(messages: readonly AgentMessage[]): { classified: ClassifiedMessage[]; stored: StoredMessage[] };
  /** `maintain(reason)` on `engine` (default: the turn's engine) when it has it */
  maintain(
    draft: TurnDraft,
    reason: MaintainReason,
    runtimeSettings: ContextEngineRuntimeSettings | undefined,
    engine?: RecordedEngine,
  ): Promise<CallOutcome<unknown> | undefined>;
  /** background `maintain("turn")`, awaited before the lane's next turn */
  deferMaintenance(promise: Promise<void>, draft: TurnDraft): void;
  replayChild(spawn: RecordedSpawn, spawnTurn: number): Promise<ChildReplayOutcome>;
  prepareSpawn(
    draft: TurnDraft,
    params: PrepareSubagentSpawnParams,
  ): Promise<CallOutcome<SubagentSpawnPreparation | undefined>>;
}

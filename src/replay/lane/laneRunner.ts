/**
 * Whole on purpose (about 440 lines with its doc comments): the runner is the state that lasts across a lane's
 * turns; the per-turn work is already in steps/ and turnFailures.ts, and what is left here is that state and the
 * order it is used in.
 *
 * One lane replaying one session, turn by turn, calling its engine exactly in the embedded runner's order
 * (behaviour §13; the steps are in steps/, `replayTurn` strings them together). The runner holds what lasts across
 * turns: the lane's transcript and engine, the identity keys of message objects handed to the engine, the
 * incremental history pipeline, deferred background maintenance and the draft receiving quarantine events.
 */
import type {
  AgentMessage,
  CommitTurnParams,
  ContextEngineInfo,
  ContextEngineRuntimeContext,
  ContextEngineRuntimeSettings,
  ContextEngineSessionTarget,
  MaintainParams,
  MaintainReason,
  SubagentSpawnPreparation,
} from '../../contract';
import type { Finding, TurnRecord } from '../../contract/recording';
import {
  createIncrementalHistoryPipeline,
  HistorySanitizer,
  type IncrementalHistoryPipeline,
} from '../../engines/legacy';
import { join } from 'node:path';
import { buildContextEngineRuntimeSettings, evaluateContextEngineHostSupport } from '../../runtime';
import { parseSessionKey } from '../../transcripts';
import { computeTurnFindings } from '../findings/computeTurnFindings';
import { classifyAssembled, type ClassifiedMessage } from '../recording/classifyProvenance';
import { createHashKeyCache } from '../recording/messageIdentity';
import type { StoredMessage } from '../recording/messageTable';
import { RecordedEngine, type CallOutcome, type EngineMethod } from '../recording/recordEngineCalls';
import { TurnDraft, type QuarantineLogEntry } from '../recording/turnDraft';
import type { PreparedSession } from '../session/prepareSession';
import type { RecordedSpawn } from '../session/subagentSpawns';
import type { SessionTurn } from '../session/sessionTurns';
import type {
  ChildReplayOutcome,
  EngineFailure,
  Lane,
  LastContext,
  PendingSubagent,
  PrepareSubagentSpawnParams,
  ReplayChild,
} from './laneContext';
import type { LaneGroup } from './laneGroup';
import { laneLlmComplete } from './laneLlm';
import type { LaneTranscript } from './laneTranscript';
import type { ReplayState } from './replayState';
import { toolCallIdDecision, type ToolCallIdDecision } from './toolCallIds';
import { replayTurn } from './steps/replayTurn';
import { degradedTurnWarning, durableTurnIssue } from './steps/turnEngine';
import { logsTurnFailures, retryPendingCommit } from './turnFailures';

export { ASSEMBLE_FAILED_WARNING } from './steps/assemble';
export { BOOTSTRAP_FAILED_WARNING } from './steps/bootstrap';
export { MAX_OVERFLOW_COMPACTION_ATTEMPTS } from './steps/attempt';

export interface LaneRunnerOptions {
  id: string;
  group: LaneGroup;
  session: PreparedSession;
  transcript: LaneTranscript;
  engine: RecordedEngine;
  sessionKey: string | null;
  depth: number;
  /** replays an accepted spawn's child session as a subagent lane (default: children are not replayed) */
  replayChild?: ReplayChild;
}

const NO_CHILD_REPLAY: ReplayChild = async () => ({ finished: false });

/** messages with the identity keys they were mapped to (for the next call's shared prefix) */
interface KeyedMessages {
  messages: readonly AgentMessage[];
  keys: readonly string[];
}

export class LaneRunner implements Lane {
  readonly id: string;
  readonly group: LaneGroup;
  readonly session: PreparedSession;
  readonly transcript: LaneTranscript;
  /** the engine the lane's config selects (resolved once for the whole replay) */
  readonly configuredEngine: RecordedEngine;
  /**
   * its own info as resolved: 2026.8+ resolves each logical turn's engine without reading the process quarantine
   * (9.6 registry-*.mjs `resolveLogicalTurnContextEngines`), so a quarantine (from a failed /compact) does not turn
   * the configured engine into legacy for the per-turn decision
   */
  private readonly configuredInfo: ContextEngineInfo;
  readonly sessionKey: string | null;
  readonly depth: number;
  readonly pendingSubagents: PendingSubagent[] = [];
  readonly engineFailures: EngineFailure[] = [];
  pendingCommit: CommitTurnParams | undefined;
  lastContext: LastContext | undefined;
  /** the engine running the current logical turn when it is not the configured one (legacy fallback) */
  private turnEngine: RecordedEngine | null = null;
  private legacyEngine: RecordedEngine | undefined;
  private llmComplete: ReturnType<typeof laneLlmComplete> | undefined;
  private unguardedEngine: RecordedEngine | undefined;
  private readonly replayChildSession: ReplayChild;
  private current: TurnDraft | null = null;
  private deferred: { promise: Promise<void>; draft: TurnDraft } | null = null;
  /** identity keys of message objects the host handed the engine (stable across turns) */
  private readonly objectKeys = new WeakMap<object, string>();
  /** the history pipeline, reusing its previous result while the lane transcript only grows */
  private readonly historyPipeline: IncrementalHistoryPipeline;
  private readonly sanitizer = new HistorySanitizer();
  /** whether a turn's model gets the strict tool-call id rewrite, and the turn being replayed */
  private readonly strictToolCallIds: ToolCallIdDecision;
  private turnIndex: number | null = null;
  readonly compactionPositions: number[] = [];
  /** content keys, once per object (messages are not mutated once handed over) */
  private readonly hashKeys = createHashKeyCache();
  /** the context whose objects are already in `objectKeys` (the transcript mostly appends) */
  private keyedContext: KeyedMessages | null = null;
  private keyedSanitized: KeyedMessages | null = null;

  constructor(
    readonly state: ReplayState,
    options: LaneRunnerOptions,
  ) {
    this.id = options.id;
    // the release's heartbeat-artifact filter (none before 2026.4.7, pairs until 5.18, then 7.35's and 9.6's)
    const heartbeat = state.profile.heartbeatFilter;
    this.historyPipeline = createIncrementalHistoryPipeline({
      heartbeat: heartbeat === 'none' ? false : { variant: heartbeat },
    });
    this.strictToolCallIds = toolCallIdDecision(state, options.depth);
    this.group = options.group;
    this.session = options.session;
    this.transcript = options.transcript;
    this.configuredEngine = options.engine;
    this.configuredInfo = options.engine.info;
    this.sessionKey = options.sessionKey;
    this.depth = options.depth;
    this.replayChildSession = options.replayChild ?? NO_CHILD_REPLAY;
    const { messages, hashKeys } = this.session;
    messages.forEach((message, i) => this.hashKeys.remember(message as object, hashKeys[i]!));
  }

  /** Routed here by the lane group while this lane runs a turn. */
  onQuarantine(entry: QuarantineLogEntry): void {
    const draft = this.current;
    if (!draft) return;
    draft.quarantines.push(entry);
    draft.addEvent({
      type: 'quarantine',
      engineId: entry.engineId,
      ...(entry.owner ? { owner: entry.owner } : {}),
      operation: entry.operation,
      reason: entry.reason,
      failedAt: entry.failedAt,
    });
  }

  newDraft(turn: number | null): TurnDraft {
    return new TurnDraft(this.state, this.id, turn, this.group.quarantineLog);
  }

  /** Run `fn` with `draft` as the turn that receives quarantine events. */
  async within<T>(draft: TurnDraft, fn: () => Promise<T>): Promise<T> {
    const previous = this.current;
    this.current = draft;
    this.group.routing.active.push(this);
    try {
      return await fn();
    } finally {
      this.group.routing.active.pop();
      this.current = previous;
    }
  }

  /** The engine of the running logical turn: the configured one, or legacy when the turn fell back. */
  get engine(): RecordedEngine {
    return this.turnEngine ?? this.configuredEngine;
  }

  sessionTarget(): Required<Omit<ContextEngineSessionTarget, 'threadId'>> | undefined {
    if (!this.state.profile.durableTurnCommit || !this.sessionKey) return undefined;
    return {
      agentId: parseSessionKey(this.sessionKey)?.agentId ?? 'main',
      sessionId: this.transcript.sessionId,
      sessionKey: this.sessionKey,
      storePath: join(this.group.agentDir, 'openclaw-agent.sqlite'),
    };
  }

  targetParams(): { sessionTarget?: ContextEngineSessionTarget } {
    const sessionTarget = this.sessionTarget();
    return sessionTarget ? { sessionTarget } : {};
  }

  get overflowCompactor(): RecordedEngine {
    if (!this.state.profile.durableTurnCommit || this.turnEngine) return this.engine;
    return this.unguardedConfigured() ?? this.engine;
  }

  /** The configured engine without the quarantine proxy (undefined when it has none: legacy, or held back). */
  private unguardedConfigured(): RecordedEngine | undefined {
    const inner = this.group.runtime.unguardedContextEngine(this.configuredEngine.engine);
    if (inner === this.configuredEngine.engine) return undefined;
    // results are still checked: one the host cannot use fails the call, and quarantines nothing
    this.unguardedEngine ??= new RecordedEngine(inner, () => undefined);
    return this.unguardedEngine;
  }

  /**
   * The engine for prepareSubagentSpawn and onSubagentEnded: OpenClaw resolves both with `resolveContextEngine`
   * (9.6 sessions-spawn-tool-*.mjs, subagent-registry-*.mjs), behind the quarantine proxy, not the logical turn's.
   */
  get slotEngine(): RecordedEngine {
    const unguarded = this.turnEngine !== null && this.turnEngine === this.unguardedEngine;
    return unguarded ? this.configuredEngine : this.engine;
  }

  /** The lane's legacy engine, for logical turns that fall back to it (resolved on first use). */
  async fallbackEngine(): Promise<RecordedEngine> {
    this.legacyEngine ??= new RecordedEngine(
      await this.group.runtime.resolveContextEngine(
        {
          ...this.group.config,
          plugins: {
            ...this.group.config.plugins,
            slots: { ...this.group.config.plugins?.slots, contextEngine: 'legacy' },
          },
        },
        { agentDir: this.group.agentDir, workspaceDir: this.group.workspaceDir },
      ),
    );
    return this.legacyEngine;
  }

  get sessionParams(): { sessionId: string; sessionKey?: string } {
    return { sessionId: this.transcript.sessionId, ...(this.sessionKey ? { sessionKey: this.sessionKey } : {}) };
  }

  runtimeContext(extra: Record<string, unknown> = {}): ContextEngineRuntimeContext {
    const complete = (this.llmComplete ??= laneLlmComplete(this.group.summarizer));
    return {
      cwd: this.session.info.cwd ?? this.group.workspaceDir,
      workspaceDir: this.group.workspaceDir,
      agentDir: this.group.agentDir,
      config: this.group.config,
      ...(this.sessionKey ? { sessionKey: this.sessionKey } : {}),
      ...(this.group.provider ? { provider: this.group.provider } : {}),
      ...(this.group.model ? { model: this.group.model } : {}),
      ...(this.state.profile.durableTurnCommit ? { transcriptStorage: { kind: 'sqlite' as const } } : {}),
      ...this.targetParams(),
      rewriteTranscriptEntries: async (request) => this.transcript.rewriteEntries(request),
      llm: { complete },
      ...extra,
    };
  }

  runtimeSettings(promptTokenBudget: number): ContextEngineRuntimeSettings {
    return buildContextEngineRuntimeSettings({
      requestedModel: this.group.model,
      resolvedModel: this.group.model,
      provider: this.group.provider,
      selectedContextEngineId: this.group.requestedEngineId,
      contextEngineSelectionSource: this.group.source === 'legacy' ? 'default' : 'configured',
      promptTokenBudget,
      maxOutputTokens: this.group.settings.reserveTokens,
      contextEngineHost: this.group.host,
    });
  }

  /**
   * The transcript context after OpenClaw's sanitize steps (tool-call ids rewritten, details stripped, stale usage
   * zeroed) and the history pipeline. A sanitized copy is keyed as the message it was made from: the recording holds
   * transcript messages with the turn-independent steps applied (src/replay/session/prepareSession.ts), so only the
   * zeroed usage is not in it (one content per key).
   */
  pipelineContext(): { messages: AgentMessage[]; removed: number } {
    const context = this.transcript.context();
    this.keyedContext = this.rememberObjectKeys(context.messages, context.keys, this.keyedContext);
    const turn = this.turnIndex ?? this.session.split.turns.length - 1;
    const strict = this.strictToolCallIds(turn >= 0 ? turn : null, this.session.turnModels[turn]);
    const sanitized = this.sanitizer.sanitize(context.messages, strict);
    // the copies get the keys of the messages they were made from (the unchanged ones have theirs already)
    if (sanitized !== context.messages)
      this.keyedSanitized = this.rememberObjectKeys(sanitized, context.keys, this.keyedSanitized);
    const piped = this.historyPipeline(sanitized);
    return { messages: piped.messages, removed: piped.removed.length };
  }

  /** Identity key of a message object the host passed to the engine, else its reference/content key. */
  private identityKey = (message: AgentMessage): string | undefined => this.objectKeys.get(message as object);

  /**
   * Map each context object to its key, in order (the last place an object appears wins). When the context only
   * appended to the previous one, the previous objects are mapped already and only the new ones are set.
   */
  private rememberObjectKeys(
    messages: readonly AgentMessage[],
    keys: readonly string[],
    previous: KeyedMessages | null,
  ): KeyedMessages {
    let from = 0;
    if (previous && previous.messages.length <= messages.length) {
      while (
        from < previous.messages.length &&
        previous.messages[from] === messages[from] &&
        previous.keys[from] === keys[from]
      )
        from++;
      if (from < previous.messages.length) from = 0;
    }
    for (let i = from; i < messages.length; i++) this.objectKeys.set(messages[i] as object, keys[i]!);
    return { messages, keys };
  }

  classify(messages: readonly AgentMessage[]): { classified: ClassifiedMessage[]; stored: StoredMessage[] } {
    const classified = classifyAssembled(messages, {
      reference: this.session.reference,
      identityKey: this.identityKey,
      hashKey: (m) => this.hashKeys.keyOf(m),
      resolveEntryId: (id) => {
        const laneId = this.transcript.laneIdOf(id);
        return laneId === undefined ? undefined : this.transcript.recordedIdOf(laneId);
      },
      knownSummary: (key) => this.transcript.summaryMarker(key),
    });
    const stored = classified.map((c, i) => this.state.table.intern(c.key, messages[i]));
    classified.forEach((c) => {
      if (c.covers && c.covers.length > 0) this.state.table.setCovers(c.key, this.session.info.sessionId, c.covers);
    });
    return { classified, stored };
  }

  deferMaintenance(promise: Promise<void>, draft: TurnDraft): void {
    this.deferred = { promise, draft };
  }

  /** Wait for deferred background maintenance of the previous turn (OpenClaw's per-session lane). */
  async flushDeferred(): Promise<Finding[]> {
    if (!this.deferred) return [];
    const { promise, draft } = this.deferred;
    this.deferred = null;
    const before = {
      voids: draft.voidResults.length,
      invalid: draft.invalidResults.length,
      quarantines: draft.quarantines.length,
    };
    await this.within(draft, () => promise);
    // findings of the deferred call (its record was already emitted)
    return computeTurnFindings({
      lane: this.id,
      turn: draft.turn ?? 0,
      engineId: this.engine.info.id,
      isLegacy: this.engine.info.id === 'legacy',
      ownsCompaction: this.engine.info.ownsCompaction === true,
      assemblySucceeded: true,
      assembled: [],
      estimatedTokens: null,
      tokenBudget: 0,
      driftThreshold: this.state.driftThreshold,
      compactions: [],
      voidResults: draft.voidResults.slice(before.voids),
      invalidResults: draft.invalidResults.slice(before.invalid),
      quarantines: draft.quarantines.slice(before.quarantines),
    });
  }

  /** `maintain(reason)` on `engine` (default: the turn's) when it has it. */
  async maintain(
    draft: TurnDraft,
    reason: MaintainReason,
    runtimeSettings: ContextEngineRuntimeSettings | undefined,
    engine: RecordedEngine = this.engine,
  ): Promise<CallOutcome<unknown> | undefined> {
    if (!engine.has('maintain')) return undefined;
    const params: MaintainParams = {
      ...this.sessionParams,
      sessionFile: this.transcript.engineSessionFile,
      ...this.targetParams(),
      reason,
      ...(runtimeSettings ? { runtimeSettings } : {}),
      runtimeContext: this.runtimeContext(),
    };
    return engine.call(draft, 'maintain', params, `reason=${reason}`);
  }

  /** Replay one recorded turn on this lane and return its record. */
  async runTurn(turn: SessionTurn): Promise<{ record: TurnRecord; findings: Finding[] }> {
    const earlier = await this.flushDeferred();
    const draft = this.newDraft(turn.index);
    this.engineFailures.length = 0;
    this.turnIndex = turn.index;
    try {
      return await this.within(draft, async () => {
        const degradedReason = await this.selectTurnEngine(draft);
        if (degradedReason !== undefined) draft.warn(degradedTurnWarning(this.configuredInfo.id, degradedReason));
        const out = await replayTurn(this, turn, draft, degradedReason);
        return { record: out.record, findings: [...earlier, ...out.findings] };
      });
    } finally {
      this.turnEngine = null;
    }
  }

  /**
   * The logical turn's engine: legacy when it degrades; on a release line that logs turn failures (2026.8+) the
   * configured engine without the quarantine proxy, after the advancement an earlier turn left queued went through
   * (9.6 context-engine-turn-attempt-*.mjs `drainPendingContextEngineTurnsBeforeRun`). Gives the degrade reason.
   */
  private async selectTurnEngine(draft: TurnDraft): Promise<string | undefined> {
    let reason = this.degradedReason();
    const unguarded = reason === undefined && logsTurnFailures(this) ? this.unguardedConfigured() : undefined;
    if (unguarded) reason = await retryPendingCommit(this, draft, unguarded);
    if (reason !== undefined) this.turnEngine = await this.fallbackEngine();
    else if (unguarded) this.turnEngine = unguarded;
    return reason;
  }

  /**
   * Why this logical turn runs on legacy instead of the configured engine (OpenClaw 2026.8+ decides per turn,
   * without a quarantine), or undefined.
   */
  private degradedReason(): string | undefined {
    if (!this.state.profile.durableTurnCommit) return undefined;
    const configured = { info: this.configuredInfo, has: (method: EngineMethod) => this.configuredEngine.has(method) };
    if (configured.info.id === 'legacy') return undefined;
    if (this.state.profile.hostRequirementMismatch === 'degrade-turn') {
      // 2026.8+ degrades the logical turn instead of failing closed (dist context-engine-turn-attempt-*.mjs)
      const host = this.group.host;
      const support = evaluateContextEngineHostSupport({
        contextEngineInfo: configured.info,
        operation: 'agent-run',
        host,
      });
      if (!support.ok) return `host "${host.id}" is missing ${support.missing.join(', ')}`;
    }
    if (!this.sessionTarget()) return 'durable transcript target is unavailable before context assembly';
    return durableTurnIssue(configured);
  }

  /** Replay the child session of an accepted spawn as a subagent lane of this lane. */
  replayChild(spawn: RecordedSpawn, spawnTurn: number): Promise<ChildReplayOutcome> {
    return this.replayChildSession(this, spawn, spawnTurn);
  }

  /** Used by the subagent lifecycle: prepareSubagentSpawn on this lane's engine. */
  async prepareSpawn(
    draft: TurnDraft,
    params: PrepareSubagentSpawnParams,
  ): Promise<CallOutcome<SubagentSpawnPreparation | undefined>> {
    return this.slotEngine.call<SubagentSpawnPreparation | undefined>(draft, 'prepareSubagentSpawn', params);
  }
}

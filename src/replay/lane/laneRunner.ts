/**
 * One lane replaying one session, turn by turn, calling its engine exactly in the embedded runner's order
 * (spec §13):
 *
 *   host-requirement check → auto-compaction guard → [bootstrap + maintain("bootstrap") when the transcript
 *   existed] → history pipeline → assemble(tokenBudget, runtimeSettings) → systemPromptAddition → precheck
 *   (skipped for owners unless promptAuthority says otherwise; overflow → compact(force, budget) on the engine,
 *   successor adopted, maintain("compaction"), retry) → the recorded model output is appended (the replay never
 *   calls a model) → subagent hooks → harness auto-compaction (non-owners, threshold crossed) →
 *   afterTurn | ingestBatch | ingest → maintain("turn") (inline, or deferred for background maintenance).
 */
import type {
  AfterTurnParams,
  AgentMessage,
  AssembleParams,
  AssembleResult,
  BootstrapParams,
  ContextEngineInfo,
  ContextEngineRuntimeContext,
  ContextEngineRuntimeSettings,
  MaintainParams,
  MaintainReason,
  SessionEntry,
  SubagentSpawnPreparation,
  ToolResultMessage,
} from '../../contract';
import { createIncrementalHistoryPipeline, shouldCompact } from '../../engines/legacy';
import {
  buildContextEngineRuntimeSettings,
  computePromptPrecheck,
  evaluateContextEngineHostSupport,
  formatContextEngineHostUnsupportedMessage,
  prependSystemPromptAddition,
  PRECHECK_OVERFLOW_ERROR_MESSAGE,
  shouldAssertContextEngineHostSupport,
} from '../../runtime';
import { deriveAssembleTokenBudget, estimatePrecheckTokensFromMessageSum } from '../../tokens';
import { projectSessionEntryMessage } from '../../transcripts';
import { buildTurnRecord } from '../recording/buildTurnRecord';
import { appendRecordedCompaction, autoCompact, compactOnEngine } from './laneCompactions';
import { classifyAssembled, type ClassifiedMessage } from '../recording/classifyProvenance';
import { computeTurnFindings } from '../findings/computeTurnFindings';
import type { LaneGroup } from './laneGroup';
import type { LaneTranscript } from './laneTranscript';
import { createHashKeyCache } from '../recording/messageIdentity';
import type { StoredMessage } from '../recording/messageTable';
import type { PreparedSession } from '../session/prepareSession';
import { type RecordedEngine, type CallOutcome } from '../recording/recordEngineCalls';
import type { Finding, PrecheckRecord, TurnRecord, TurnStatus } from '../../contract/recording';
import type { ChildReplayOutcome, ReplayState } from './replayState';
import type { RecordedSpawn } from '../session/subagentSpawns';
import { promptTextOf, recordedTurnOutcome, type SessionTurn } from '../session/sessionTurns';
import { handleRecordedSpawns, type PendingSubagent } from './subagentLifecycle';
import { reducibleToolResultChars, truncateToolResult } from './toolResultTruncation';
import { TurnDraft, type QuarantineLogEntry } from '../recording/turnDraft';

/** OpenClaw retries overflow recovery a bounded number of times per run. */
export const MAX_OVERFLOW_COMPACTION_ATTEMPTS = 3;

export const ASSEMBLE_FAILED_WARNING = 'context engine assemble failed, using pipeline messages: ';
export const BOOTSTRAP_FAILED_WARNING = 'context engine bootstrap failed: ';

export interface LaneRunnerOptions {
  id: string;
  group: LaneGroup;
  session: PreparedSession;
  transcript: LaneTranscript;
  engine: RecordedEngine;
  sessionKey: string | null;
  depth: number;
}

interface AttemptResult {
  pipeline: AgentMessage[];
  pipelineRemoved: number;
  assembled: AgentMessage[];
  classified: ClassifiedMessage[];
  stored: StoredMessage[];
  assemblySucceeded: boolean;
  assembleError?: string;
  result?: AssembleResult;
  runtimeSettings: ContextEngineRuntimeSettings;
  precheck: PrecheckRecord;
  /** precheck or provider overflow: the prompt cannot be sent as is */
  overflow?: { source: 'precheck' | 'provider'; tokens: number; route: PrecheckRecord['route'] };
}

function skipReasonFor(engineId: string): string {
  return `[context-overflow-precheck] skipped: context engine "${engineId}" owns compaction`;
}

export class LaneRunner {
  readonly id: string;
  readonly group: LaneGroup;
  readonly session: PreparedSession;
  readonly transcript: LaneTranscript;
  readonly engine: RecordedEngine;
  readonly sessionKey: string | null;
  readonly depth: number;
  readonly pendingSubagents: PendingSubagent[] = [];
  private current: TurnDraft | null = null;
  private deferred: { promise: Promise<void>; draft: TurnDraft } | null = null;
  /** identity keys of message objects the host handed the engine (stable across turns) */
  private readonly objectKeys = new WeakMap<object, string>();
  /** the history pipeline, reusing its previous result while the lane transcript only grows */
  private readonly historyPipeline = createIncrementalHistoryPipeline();
  /** content keys, once per object (messages are not mutated once handed over) */
  private readonly hashKeys = createHashKeyCache();
  /** the context whose objects are already in `objectKeys` (the transcript mostly appends) */
  private keyedContext: { messages: readonly AgentMessage[]; keys: readonly string[] } | null = null;

  constructor(
    private readonly state: ReplayState,
    options: LaneRunnerOptions,
  ) {
    this.id = options.id;
    this.group = options.group;
    this.session = options.session;
    this.transcript = options.transcript;
    this.engine = options.engine;
    this.sessionKey = options.sessionKey;
    this.depth = options.depth;
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

  /** `{sessionId, sessionKey?}` of the lane's current session (the successor after a rotation). */
  get sessionParams(): { sessionId: string; sessionKey?: string } {
    return { sessionId: this.transcript.sessionId, ...(this.sessionKey ? { sessionKey: this.sessionKey } : {}) };
  }

  runtimeContext(extra: Record<string, unknown> = {}): ContextEngineRuntimeContext {
    const summarizer = this.group.summarizer;
    return {
      cwd: this.session.info.cwd ?? this.group.workspaceDir,
      workspaceDir: this.group.workspaceDir,
      agentDir: this.group.agentDir,
      config: this.group.config,
      ...(this.sessionKey ? { sessionKey: this.sessionKey } : {}),
      ...(this.group.provider ? { provider: this.group.provider } : {}),
      ...(this.group.model ? { model: this.group.model } : {}),
      rewriteTranscriptEntries: async (request) => this.transcript.rewriteEntries(request),
      llm: { complete: (params) => summarizer.complete(params) },
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

  /** Identity key of a message object the host passed to the engine, else its reference/content key. */
  private identityKey = (message: AgentMessage): string | undefined => this.objectKeys.get(message as object);

  /**
   * Map each context object to its key, in order (the last place an object appears wins). When the context only
   * appended to the previous one, the previous objects are mapped already and only the new ones are set.
   */
  private rememberObjectKeys(messages: readonly AgentMessage[], keys: readonly string[]): void {
    const previous = this.keyedContext;
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
    this.keyedContext = { messages, keys };
  }

  private classify(messages: readonly AgentMessage[]): { classified: ClassifiedMessage[]; stored: StoredMessage[] } {
    const reference = this.session.reference;
    const classified = classifyAssembled(messages, {
      reference,
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

  /** Wait for deferred background maintenance of the previous turn (OpenClaw's per-session lane). */
  async flushDeferred(): Promise<Finding[]> {
    if (!this.deferred) return [];
    const { promise, draft } = this.deferred;
    this.deferred = null;
    const before = { voids: draft.voidResults.length, quarantines: draft.quarantines.length };
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
      quarantines: draft.quarantines.slice(before.quarantines),
    });
  }

  /** `maintain(reason)` when the engine has it. */
  async maintain(
    draft: TurnDraft,
    reason: MaintainReason,
    runtimeSettings: ContextEngineRuntimeSettings | undefined,
  ): Promise<CallOutcome<unknown> | undefined> {
    if (!this.engine.has('maintain')) return undefined;
    const params: MaintainParams = {
      ...this.sessionParams,
      sessionFile: this.transcript.engineSessionFile,
      reason,
      ...(runtimeSettings ? { runtimeSettings } : {}),
      runtimeContext: this.runtimeContext(),
    };
    return this.engine.call(draft, 'maintain', params, `reason=${reason}`);
  }

  private async runAttempt(
    draft: TurnDraft,
    prompt: string,
    budget: ReturnType<typeof deriveAssembleTokenBudget>,
  ): Promise<AttemptResult> {
    const runtimeSettings = this.runtimeSettings(budget.tokenBudget);

    // Bootstrap, when the transcript file already existed (spec §13 step 4, §14.50).
    if (this.transcript.existsOnDisk() && (this.engine.has('bootstrap') || this.engine.has('maintain'))) {
      if (this.engine.has('bootstrap')) {
        const params: BootstrapParams = {
          ...this.sessionParams,
          sessionFile: this.transcript.engineSessionFile,
          runtimeSettings,
          runtimeContext: this.runtimeContext(),
        };
        const outcome = await this.engine.call(draft, 'bootstrap', params);
        if (!outcome.ok) draft.warn(BOOTSTRAP_FAILED_WARNING + outcome.message);
      }
      const maintained = await this.maintain(draft, 'bootstrap', runtimeSettings);
      if (maintained && !maintained.ok) draft.warn(BOOTSTRAP_FAILED_WARNING + maintained.message);
    }

    // History pipeline over the lane's own transcript.
    const context = this.transcript.context();
    this.rememberObjectKeys(context.messages, context.keys);
    const piped = this.historyPipeline(context.messages);
    const pipeline = piped.messages;

    const params: AssembleParams = {
      ...this.sessionParams,
      messages: pipeline,
      tokenBudget: budget.tokenBudget,
      availableTools: new Set(this.session.toolNames),
      ...(this.group.model ? { model: this.group.model } : {}),
      prompt,
      runtimeSettings,
    };
    const outcome = await this.engine.call<AssembleResult>(draft, 'assemble', params);
    let assembled = pipeline;
    let assemblySucceeded = false;
    let assembleError: string | undefined;
    let result: AssembleResult | undefined;
    if (outcome.ok && outcome.value && Array.isArray(outcome.value.messages)) {
      result = outcome.value;
      assembled = result.messages;
      assemblySucceeded = true;
    } else {
      assembleError = outcome.ok ? 'assemble() returned no messages array' : outcome.message;
      draft.warn(ASSEMBLE_FAILED_WARNING + assembleError);
    }

    const { classified, stored } = this.classify(assembled);

    if (assemblySucceeded && this.state.checkDeterminism) {
      const again = await this.engine.call<AssembleResult>(draft, 'assemble', { ...params }, 'determinism check');
      if (again.ok && again.value && Array.isArray(again.value.messages)) {
        const second = this.classify(again.value.messages).classified.map((c) => c.key);
        draft.determinism = { first: classified.map((c) => c.key), second };
      }
    }

    // Pre-prompt precheck (spec §7.3).
    const systemPrompt = prependSystemPromptAddition(this.state.systemPrompt, result?.systemPromptAddition);
    const authority = result?.promptAuthority;
    // Read live: an engine quarantined by this very assemble now answers with legacy's info.
    const live = this.engine.info;
    const skipped = assemblySucceeded && live.ownsCompaction === true && authority !== 'preassembly_may_overflow';
    let estimate = estimatePrecheckTokensFromMessageSum({
      messageTokensSum: stored.reduce((s, m) => s + m.precheckTokens, 0),
      systemPrompt,
      prompt,
    });
    let pressureSource: PrecheckRecord['pressureSource'] = 'assembled';
    if (authority === 'preassembly_may_overflow' && pipeline !== assembled) {
      const unwindowed = this.classify(pipeline).stored;
      const unwindowedEstimate = estimatePrecheckTokensFromMessageSum({
        messageTokensSum: unwindowed.reduce((s, m) => s + m.precheckTokens, 0),
        systemPrompt,
        prompt,
      });
      if (unwindowedEstimate > estimate) {
        estimate = unwindowedEstimate;
        pressureSource = 'unwindowed_transcript_estimate';
      }
    }
    const reducible = reducibleToolResultChars(assembled, this.group.contextWindow);
    const computed = computePromptPrecheck({
      estimatedTokens: estimate,
      contextTokenBudget: this.group.contextWindow,
      reserveTokens: this.group.settings.reserveTokens,
      reducibleToolResultChars: reducible,
    });
    const precheck: PrecheckRecord = {
      skipped,
      ...(skipped ? { skipReason: skipReasonFor(live.id) } : {}),
      estimatedTokens: estimate,
      pressureSource,
      promptBudgetBeforeReserve: computed.promptBudgetBeforeReserve,
      effectiveReserveTokens: computed.effectiveReserveTokens,
      overflowTokens: computed.overflowTokens,
      reducibleToolResultChars: reducible,
      route: computed.route,
      shouldCompact: computed.shouldCompact,
    };

    const attempt: AttemptResult = {
      pipeline,
      pipelineRemoved: piped.removed.length,
      assembled,
      classified,
      stored,
      assemblySucceeded,
      ...(assembleError !== undefined ? { assembleError } : {}),
      ...(result ? { result } : {}),
      runtimeSettings,
      precheck,
    };
    if (!skipped && computed.route !== 'fits') {
      attempt.overflow = { source: 'precheck', tokens: estimate, route: computed.route };
      await this.state.table.ensureCounted(stored);
      return attempt;
    }
    // The provider rejects a prompt larger than the window (the replay's stand-in for a provider overflow error).
    await this.state.table.ensureCounted(stored);
    const counter = this.state.counter;
    const providerTokens =
      stored.reduce((s, m) => s + m.tiktokenTokens, 0) +
      (await counter.count(systemPrompt)) +
      (await counter.count(prompt));
    if (providerTokens > this.group.contextWindow) {
      attempt.overflow = { source: 'provider', tokens: providerTokens, route: computed.route };
    }
    return attempt;
  }

  /** Truncate oversized tool results in the lane transcript (the precheck's truncate route); true when any was. */
  private truncateOversizedToolResults(): boolean {
    const replacements: { entryId: string; message: AgentMessage }[] = [];
    for (const entry of this.transcript.activePath()) {
      if (entry.type !== 'message' || entry.message.role !== 'toolResult') continue;
      const truncated = truncateToolResult(entry.message as ToolResultMessage, this.group.contextWindow);
      if (truncated) replacements.push({ entryId: entry.id, message: truncated });
    }
    if (replacements.length === 0) return false;
    return this.transcript.rewriteEntries({ replacements }).changed;
  }

  /** Replay one recorded turn on this lane and return its record. */
  async runTurn(turn: SessionTurn): Promise<{ record: TurnRecord; findings: Finding[] }> {
    const earlier = await this.flushDeferred();
    const draft = this.newDraft(turn.index);
    return this.within(draft, async () => {
      const out = await this.runTurnInner(turn, draft);
      return { record: out.record, findings: [...earlier, ...out.findings] };
    });
  }

  private async runTurnInner(
    turn: SessionTurn,
    draft: TurnDraft,
  ): Promise<{ record: TurnRecord; findings: Finding[] }> {
    const state = this.state;
    const prompt = promptTextOf(turn.userEntry.message);
    const promptStored = state.table.intern(turn.userEntry.id, turn.userEntry.message, turn.userEntry.id);
    const historyCount = this.session.info.turnStarts[turn.index] ?? this.session.info.messageKeys.length;

    const manual = state.manualCompactions.get(turn.index);
    if (manual !== undefined) {
      const info = this.engine.info;
      const budget = deriveAssembleTokenBudget({
        contextTokenBudget: this.group.contextWindow,
        reserveTokens: this.group.settings.reserveTokens,
      });
      await compactOnEngine(
        this,
        draft,
        info,
        'manual',
        {
          force: true,
          forceReason: 'manual',
          tokenBudget: this.group.contextWindow,
          ...(manual.customInstructions ? { customInstructions: manual.customInstructions } : {}),
        },
        this.runtimeSettings(budget.tokenBudget),
      );
    }

    const info = this.engine.info;
    const described = this.group.runtime.describeResolvedEngine(this.engine.engine);
    const engineRecord = {
      requestedId: this.group.requestedEngineId,
      engineId: info.id,
      ...(described?.owner && !described.quarantined ? { owner: described.owner } : {}),
      quarantined: described?.quarantined === true,
      ownsCompaction: info.ownsCompaction === true,
    };
    const budget = deriveAssembleTokenBudget({
      contextTokenBudget: this.group.contextWindow,
      reserveTokens: this.group.settings.reserveTokens,
      systemPrompt: state.systemPrompt,
      prompt,
    });
    const budgetRecord = {
      contextWindow: this.group.contextWindow,
      reserveTokens: this.group.settings.reserveTokens,
      promptBudget: budget.promptBudget,
      tokenBudget: budget.tokenBudget,
      renderedPromptTokens: budget.renderedTokens,
    };

    // Host requirements: fail closed, the run never starts (spec §5, §13 step 2).
    let hostFailure: string | undefined;
    if (shouldAssertContextEngineHostSupport(info)) {
      const args = { contextEngineInfo: info, operation: 'agent-run' as const, host: this.group.host };
      const evaluation = evaluateContextEngineHostSupport(args);
      if (!evaluation.ok) {
        hostFailure = formatContextEngineHostUnsupportedMessage(args, evaluation);
        draft.addEvent({
          type: 'hostRequirement',
          engineId: info.id,
          operation: 'agent-run',
          hostId: this.group.host.id,
          missing: evaluation.missing,
          message: hostFailure,
        });
      }
    }

    let attempt: AttemptResult | undefined;
    let promptError: string | undefined;
    if (hostFailure === undefined) {
      let overflowCompactions = 0;
      let truncated = false;
      for (;;) {
        attempt = await this.runAttempt(draft, prompt, budget);
        if (!attempt.overflow) break;
        if (
          attempt.overflow.route === 'truncate_tool_results_only' &&
          attempt.overflow.source === 'precheck' &&
          !truncated
        ) {
          truncated = true;
          if (this.truncateOversizedToolResults()) {
            draft.attemptNo++;
            continue;
          }
        }
        promptError =
          attempt.overflow.source === 'precheck'
            ? PRECHECK_OVERFLOW_ERROR_MESSAGE
            : `Context overflow: the prompt (${attempt.overflow.tokens} tokens, tiktoken) exceeds the ${this.group.contextWindow}-token context window.`;
        if (overflowCompactions >= MAX_OVERFLOW_COMPACTION_ATTEMPTS) break;
        overflowCompactions++;
        const compacted = await compactOnEngine(
          this,
          draft,
          this.engine.info,
          'overflow',
          {
            tokenBudget: this.group.contextWindow,
            currentTokenCount: attempt.overflow.tokens,
            force: true,
            compactionTarget: 'budget',
            ...(attempt.overflow.source === 'precheck'
              ? { forceReason: 'preflight_required' as const, preflightCompactionTrigger: 'tokens' as const }
              : {}),
          },
          attempt.runtimeSettings,
        );
        if (!compacted) break;
        promptError = undefined;
        draft.attemptNo++;
      }
    }
    const promptSent = hostFailure === undefined && promptError === undefined;

    // The recorded model output (and everything else the turn wrote) goes into the lane transcript.
    const newMessages: AgentMessage[] = [];
    const newMessageKeys: string[] = [];
    for (const entry of turn.entries) {
      if (entry.type === 'compaction') {
        if (!state.honourRecordedCompactions) continue;
        appendRecordedCompaction(this, draft, entry);
        continue;
      }
      const appended = this.transcript.appendRecorded(entry);
      if (!appended) continue;
      const message = projectSessionEntryMessage(entry as SessionEntry);
      if (message) {
        newMessages.push(message);
        newMessageKeys.push(entry.id);
        state.table.intern(entry.id, message, entry.id);
      }
    }
    this.transcript.materialize();

    const recorded = recordedTurnOutcome(turn);
    let status: TurnStatus;
    let error: string | undefined;
    if (hostFailure !== undefined) {
      status = 'host_unsupported';
      error = hostFailure;
    } else if (!promptSent) {
      status = 'prompt_error';
      error = promptError;
    } else {
      status = recorded.outcome;
      error = recorded.error;
    }

    if (promptSent) {
      await handleRecordedSpawns(this, turn, draft);
    }

    let autoCompactionSummary: string | undefined;
    if (promptSent && attempt && this.group.compactionEnabled && info.ownsCompaction !== true) {
      const contextTokens =
        attempt.stored.reduce((s, m) => s + m.estTokens, 0) +
        newMessageKeys.reduce((s, k) => s + (state.table.get(k)?.estTokens ?? 0), 0);
      if (shouldCompact(contextTokens, this.group.contextWindow, this.group.settings)) {
        autoCompactionSummary = await autoCompact(this, draft, contextTokens);
      }
    }

    // Finalize (spec §13 step 7): afterTurn, else ingestBatch, else ingest per message; then maintain("turn").
    let finalizationOk = true;
    if (hostFailure === undefined && attempt) {
      const sent = promptSent ? newMessages : [];
      if (this.engine.has('afterTurn')) {
        const params: AfterTurnParams = {
          ...this.sessionParams,
          sessionFile: this.transcript.engineSessionFile,
          messages: [...attempt.assembled, ...sent],
          prePromptMessageCount: attempt.assembled.length,
          ...(autoCompactionSummary !== undefined ? { autoCompactionSummary } : {}),
          isHeartbeat: false,
          tokenBudget: budget.tokenBudget,
          runtimeSettings: attempt.runtimeSettings,
          runtimeContext: this.runtimeContext(),
        };
        const outcome = await this.engine.call(draft, 'afterTurn', params);
        if (!outcome.ok) {
          finalizationOk = false;
          draft.warn(`context engine afterTurn failed: ${outcome.message}`);
        }
      } else if (this.engine.has('ingestBatch')) {
        if (sent.length > 0) {
          const outcome = await this.engine.call(draft, 'ingestBatch', {
            ...this.sessionParams,
            messages: sent,
            isHeartbeat: false,
          });
          if (!outcome.ok) {
            finalizationOk = false;
            draft.warn(`context engine ingestBatch failed: ${outcome.message}`);
          }
        }
      } else {
        for (const message of sent) {
          const outcome = await this.engine.call(draft, 'ingest', {
            ...this.sessionParams,
            message,
            isHeartbeat: false,
          });
          if (!outcome.ok) {
            finalizationOk = false;
            draft.warn(`context engine ingest failed: ${outcome.message}`);
          }
        }
      }
      if (status === 'ok' && finalizationOk && this.engine.has('maintain')) {
        const background = info.turnMaintenanceMode === 'background' && this.sessionKey !== null;
        if (background) {
          const params: MaintainParams = {
            ...this.sessionParams,
            sessionFile: this.transcript.engineSessionFile,
            reason: 'turn',
            runtimeSettings: attempt.runtimeSettings,
            runtimeContext: this.runtimeContext(),
          };
          const promise = this.engine
            .call(draft, 'maintain', params, 'reason=turn, deferred (background)')
            .then(() => undefined);
          this.deferred = { promise, draft };
        } else {
          await this.maintain(draft, 'turn', attempt.runtimeSettings);
        }
      }
    }

    const record = buildTurnRecord({
      lane: this.id,
      turn: turn.index,
      userEntryId: turn.userEntry.id,
      promptKey: promptStored.key,
      status,
      ...(error !== undefined ? { error } : {}),
      engine: engineRecord,
      budget: budgetRecord,
      historyCount,
      ...(attempt
        ? {
            attempt: {
              inputCount: attempt.pipeline.length,
              pipelineRemoved: attempt.pipelineRemoved,
              assemblySucceeded: attempt.assemblySucceeded,
              classified: attempt.classified,
              stored: attempt.stored,
              ...(attempt.result ? { result: attempt.result } : {}),
              precheck: attempt.precheck,
            },
          }
        : {}),
      draft,
      newMessageKeys,
      reference: this.session.reference,
      messageKeys: this.session.info.messageKeys,
    });

    const findings = computeTurnFindings({
      lane: this.id,
      turn: turn.index,
      engineId: info.id,
      isLegacy: info.id === 'legacy',
      ownsCompaction: info.ownsCompaction === true,
      assemblySucceeded: attempt?.assemblySucceeded ?? true,
      ...(attempt?.assembleError !== undefined ? { assembleError: attempt.assembleError } : {}),
      assembled: attempt ? attempt.assembled.map((message, i) => ({ message, ...pick(attempt!.stored[i]) })) : [],
      estimatedTokens: record.estimatedTokens,
      tokenBudget: budget.tokenBudget,
      driftThreshold: state.driftThreshold,
      compactions: draft.compactions,
      ...(draft.determinism ? { determinism: draft.determinism } : {}),
      voidResults: draft.voidResults,
      quarantines: draft.quarantines,
      ...(hostFailure !== undefined ? { hostFailure } : {}),
    });
    return { record, findings };
  }

  /** Replay the child session of an accepted spawn as a subagent lane of this lane. */
  replayChild(spawn: RecordedSpawn, spawnTurn: number): Promise<ChildReplayOutcome> {
    return this.state.replayChild(this, spawn, spawnTurn);
  }

  /** Used by the subagent lifecycle: prepareSubagentSpawn on this lane's engine. */
  async prepareSpawn(
    draft: TurnDraft,
    params: Parameters<NonNullable<import('../../contract').ContextEngine['prepareSubagentSpawn']>>[0],
  ): Promise<CallOutcome<SubagentSpawnPreparation | undefined>> {
    return this.engine.call<SubagentSpawnPreparation | undefined>(draft, 'prepareSubagentSpawn', params);
  }
}

function pick(stored: StoredMessage): { estTokens: number; tiktokenTokens: number } {
  return { estTokens: stored.estTokens, tiktokenTokens: stored.tiktokenTokens };
}

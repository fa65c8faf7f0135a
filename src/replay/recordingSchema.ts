/**
 * The Recording: everything one replay produced, as a versioned JSON document (schemaVersion 1).
 *
 * Defined once here with typebox; the TypeScript types are derived from the schema, `importRecording` validates
 * against it, and `src/replay/README.md` documents every field. Size is kept linear in session length:
 * each distinct message is stored once in `messages` (keyed by identity) and turns reference keys; the
 * transcript messages an engine left out are stored as index ranges into the session's message order.
 */
import { Type, type Static } from '@sinclair/typebox';

export const RECORDING_SCHEMA_VERSION = 1;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const NonNegInt = Type.Integer({ minimum: 0 });

/** `[from, to)` — a half-open range of indices into a session's `messageKeys`. */
export const IndexRangeSchema = Type.Tuple([NonNegInt, NonNegInt], {
  description: 'Half-open range [from, to) of indices into the session messageKeys array.',
});
export type IndexRange = Static<typeof IndexRangeSchema>;

export const ProvenanceSchema = Type.Union(
  [Type.Literal('raw'), Type.Literal('modified'), Type.Literal('summary'), Type.Literal('synthetic')],
  {
    description:
      'raw = identical to a transcript message; modified = same identity, changed content; summary = a summary ' +
      'produced by the engine or a compaction; synthetic = anything else the engine injected.',
  },
);
export type Provenance = Static<typeof ProvenanceSchema>;

export const SeveritySchema = Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]);
export type Severity = Static<typeof SeveritySchema>;

export const FINDING_CODES = [
  'noop-compaction',
  'compaction-no-effect',
  'compaction-refused',
  'estimate-drift',
  'orphaned-tool-call',
  'orphaned-tool-result',
  'assistant-first',
  'non-deterministic',
  'over-budget',
  'void-result',
  'quarantined',
  'host-unsupported',
  'assemble-failed',
  'keep-recent-exceeds-budget',
  'plugin-hooks-not-run',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];
export const FindingCodeSchema = Type.Unsafe<FindingCode>(
  Type.Union(
    FINDING_CODES.map((code) => Type.Literal(code)),
    { description: 'See src/replay/README.md "Findings" for what each code means.' },
  ),
);

export const FindingSchema = Type.Object(
  {
    code: FindingCodeSchema,
    severity: SeveritySchema,
    lane: Type.String(),
    /** null when the finding is not tied to one turn (lane setup, end of replay) */
    turn: Nullable(NonNegInt),
    message: Type.String(),
  },
  { additionalProperties: false },
);
export type Finding = Static<typeof FindingSchema>;

/** One distinct message, stored once; referenced by key from turns. */
export const MessageRecordSchema = Type.Object(
  {
    role: Type.String(),
    /** the AgentMessage exactly as the transcript holds it or as the engine returned it */
    message: Type.Object({ role: Type.String() }, { additionalProperties: true }),
    /** OpenClaw's compaction estimator (chars/4 per role) */
    estTokens: NonNegInt,
    /** tiktoken count of the message's LLM-visible text (o200k_base unless the lane model says otherwise) */
    tiktokenTokens: NonNegInt,
    /** the recorded transcript entry the message came from (entry-id keys only) */
    entryId: Type.Optional(Type.String()),
    /**
     * for summaries: the transcript messages the summary covers, as ranges into the `messageKeys` of session
     * `sessionId` (a compaction covering 3,000 messages is one range)
     */
    covers: Type.Optional(
      Type.Object({ sessionId: Type.String(), ranges: Type.Array(IndexRangeSchema) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type MessageRecord = Static<typeof MessageRecordSchema>;

export const AssembledRefSchema = Type.Object(
  {
    key: Type.String(),
    provenance: ProvenanceSchema,
    estTokens: NonNegInt,
    tiktokenTokens: NonNegInt,
    /** for `modified`: the key of the transcript message it was derived from */
    sourceKey: Type.Optional(Type.String()),
    /** for `summary`: the covered transcript keys when they are few (≤ 32); always see messages[key].covers */
    coversKeys: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type AssembledRef = Static<typeof AssembledRefSchema>;

export const EngineCallSchema = Type.Object(
  {
    method: Type.String(),
    /** 0-based attempt within the turn (overflow recovery retries start a new attempt) */
    attempt: NonNegInt,
    /** ms since the start of the replay */
    startedAtMs: Type.Number({ minimum: 0 }),
    durationMs: Type.Number({ minimum: 0 }),
    outcome: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
    error: Type.Optional(Type.String()),
    /** the engine threw and the runtime answered with the legacy fallback (the call quarantined the engine) */
    fellBack: Type.Optional(Type.Boolean()),
    /** e.g. "reason=turn", "deferred (background maintenance)", "determinism check" */
    note: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type EngineCall = Static<typeof EngineCallSchema>;

export const CompactionTriggerSchema = Type.Union([
  Type.Literal('auto'),
  Type.Literal('overflow'),
  Type.Literal('manual'),
  Type.Literal('recorded'),
]);
export type CompactionTrigger = Static<typeof CompactionTriggerSchema>;

const EventBase = {
  lane: Type.String(),
  turn: Nullable(NonNegInt),
  /** order of the event within the whole replay */
  seq: NonNegInt,
};

export const CompactionEventSchema = Type.Object(
  {
    type: Type.Literal('compaction'),
    ...EventBase,
    trigger: CompactionTriggerSchema,
    /** the engine whose compact() ran; "built-in" for the harness auto-compaction and recorded compactions */
    engineId: Type.String(),
    ok: Type.Boolean(),
    compacted: Type.Boolean(),
    reason: Type.Optional(Type.String()),
    tokensBefore: Nullable(Type.Number()),
    tokensAfter: Nullable(Type.Number()),
    summary: Nullable(Type.String()),
    /** the first kept entry as a message key (recorded entry id when the entry came from the session) */
    firstKeptEntryId: Nullable(Type.String()),
    successorSessionId: Type.Optional(Type.String()),
    successorSessionFile: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const QuarantineEventSchema = Type.Object(
  {
    type: Type.Literal('quarantine'),
    ...EventBase,
    engineId: Type.String(),
    owner: Type.Optional(Type.String()),
    operation: Type.String(),
    reason: Type.String(),
    failedAt: Type.Number(),
  },
  { additionalProperties: false },
);

export const SubagentSpawnEventSchema = Type.Object(
  {
    type: Type.Literal('subagentSpawn'),
    ...EventBase,
    toolCallId: Type.String(),
    childSessionKey: Nullable(Type.String()),
    contextMode: Type.Union([Type.Literal('isolated'), Type.Literal('fork')]),
    lightContext: Type.Boolean(),
    mode: Type.Union([Type.Literal('run'), Type.Literal('session')]),
    cleanup: Type.Union([Type.Literal('keep'), Type.Literal('delete')]),
    /** prepareSubagentSpawn was called */
    prepared: Type.Boolean(),
    skippedReason: Type.Optional(Type.String()),
    /** the spawn failed (recorded tool error, fork precondition, or prepareSubagentSpawn threw) */
    error: Type.Optional(Type.String()),
    /** the child lane replaying the child transcript, when it was found */
    childLane: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const SubagentRollbackEventSchema = Type.Object(
  {
    type: Type.Literal('subagentRollback'),
    ...EventBase,
    childSessionKey: Nullable(Type.String()),
    ok: Type.Boolean(),
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const SubagentEndedEventSchema = Type.Object(
  {
    type: Type.Literal('subagentEnded'),
    ...EventBase,
    childSessionKey: Type.String(),
    reason: Type.Union([
      Type.Literal('completed'),
      Type.Literal('deleted'),
      Type.Literal('swept'),
      Type.Literal('released'),
    ]),
    ok: Type.Boolean(),
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const HostRequirementEventSchema = Type.Object(
  {
    type: Type.Literal('hostRequirement'),
    ...EventBase,
    engineId: Type.String(),
    operation: Type.String(),
    hostId: Type.String(),
    missing: Type.Array(Type.String()),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const WarningEventSchema = Type.Object(
  {
    type: Type.Literal('warning'),
    ...EventBase,
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const ReplayEventSchema = Type.Union([
  CompactionEventSchema,
  QuarantineEventSchema,
  SubagentSpawnEventSchema,
  SubagentRollbackEventSchema,
  SubagentEndedEventSchema,
  HostRequirementEventSchema,
  WarningEventSchema,
]);
export type ReplayEvent = Static<typeof ReplayEventSchema>;
export type CompactionEvent = Static<typeof CompactionEventSchema>;
export type QuarantineEvent = Static<typeof QuarantineEventSchema>;
export type SubagentSpawnEvent = Static<typeof SubagentSpawnEventSchema>;
export type SubagentRollbackEvent = Static<typeof SubagentRollbackEventSchema>;
export type SubagentEndedEvent = Static<typeof SubagentEndedEventSchema>;
export type HostRequirementEvent = Static<typeof HostRequirementEventSchema>;
export type WarningEvent = Static<typeof WarningEventSchema>;

export const PrecheckRouteSchema = Type.Union([
  Type.Literal('fits'),
  Type.Literal('compact_only'),
  Type.Literal('truncate_tool_results_only'),
  Type.Literal('compact_then_truncate'),
]);

export const PrecheckRecordSchema = Type.Object(
  {
    skipped: Type.Boolean(),
    /** the log line OpenClaw writes when it skips */
    skipReason: Type.Optional(Type.String()),
    estimatedTokens: NonNegInt,
    pressureSource: Type.Union([Type.Literal('assembled'), Type.Literal('unwindowed_transcript_estimate')]),
    promptBudgetBeforeReserve: NonNegInt,
    effectiveReserveTokens: NonNegInt,
    overflowTokens: NonNegInt,
    reducibleToolResultChars: NonNegInt,
    route: PrecheckRouteSchema,
    shouldCompact: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type PrecheckRecord = Static<typeof PrecheckRecordSchema>;

export const TurnStatusSchema = Type.Union(
  [Type.Literal('ok'), Type.Literal('prompt_error'), Type.Literal('aborted'), Type.Literal('host_unsupported')],
  {
    description:
      'ok = the prompt was sent; prompt_error = the recorded model call ended in error, or the prompt never fit ' +
      '(overflow recovery failed); aborted = the recorded call was aborted; host_unsupported = the lane host lacks ' +
      'capabilities the engine requires (the run never started).',
  },
);
export type TurnStatus = Static<typeof TurnStatusSchema>;

export const TurnRecordSchema = Type.Object(
  {
    lane: Type.String(),
    /** 0-based user-turn index within the lane's session */
    turn: NonNegInt,
    userEntryId: Nullable(Type.String()),
    /** the user prompt of the turn (a key into messages) */
    promptKey: Type.String(),
    status: TurnStatusSchema,
    error: Type.Optional(Type.String()),
    engine: Type.Object(
      {
        /** the engine id the lane selects (the slot value) */
        requestedId: Type.String(),
        /** info.id of the engine that actually served the turn (legacy after a quarantine) */
        engineId: Type.String(),
        owner: Type.Optional(Type.String()),
        quarantined: Type.Boolean(),
        ownsCompaction: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    budget: Type.Object(
      {
        contextWindow: NonNegInt,
        reserveTokens: NonNegInt,
        /** max(1, contextWindow − reserveTokens) */
        promptBudget: NonNegInt,
        /** the tokenBudget passed to assemble: promptBudget minus the rendered system prompt + prompt */
        tokenBudget: NonNegInt,
        renderedPromptTokens: NonNegInt,
      },
      { additionalProperties: false },
    ),
    /** session messages before this turn: the reference transcript is messageKeys[0, historyCount) */
    historyCount: NonNegInt,
    /** messages passed to assemble (after the history pipeline) */
    inputCount: NonNegInt,
    /** messages the history pipeline removed */
    pipelineRemoved: NonNegInt,
    assemblySucceeded: Type.Boolean(),
    /** what the model was sent (the pipeline messages when assemble failed) */
    assembled: Type.Array(AssembledRefSchema),
    totals: Type.Object(
      {
        estTokens: NonNegInt,
        tiktokenTokens: NonNegInt,
        /** the pre-prompt precheck estimate of assembled + system prompt + prompt */
        precheckTokens: NonNegInt,
      },
      { additionalProperties: false },
    ),
    omitted: Type.Object(
      {
        dropped: Type.Array(IndexRangeSchema),
        summarized: Type.Array(IndexRangeSchema),
        droppedCount: NonNegInt,
        summarizedCount: NonNegInt,
        /** reference transcript messages present raw or modified in the assembled context */
        keptCount: NonNegInt,
      },
      { additionalProperties: false },
    ),
    /** the engine's own estimatedTokens (null when assemble failed) */
    estimatedTokens: Nullable(Type.Number()),
    systemPromptAddition: Nullable(Type.String()),
    promptAuthority: Nullable(Type.Union([Type.Literal('assembled'), Type.Literal('preassembly_may_overflow')])),
    precheck: PrecheckRecordSchema,
    /** attempts made (1 + overflow-recovery retries) */
    attempts: NonNegInt,
    calls: Type.Array(EngineCallSchema),
    events: Type.Array(ReplayEventSchema),
    /** the recorded output of this turn appended to the lane transcript (user prompt, assistant, tool results) */
    newMessageKeys: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type TurnRecord = Static<typeof TurnRecordSchema>;

export const HostRecordSchema = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    capabilities: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

export const LaneRecordSchema = Type.Object(
  {
    id: Type.String(),
    label: Type.String(),
    /** the lane spec as given (e.g. "legacy", "plugin:summary-tree?config=cfg.json") */
    spec: Type.String(),
    source: Type.Union([Type.Literal('legacy'), Type.Literal('plugin'), Type.Literal('in-process')]),
    requestedEngineId: Type.String(),
    pluginId: Type.Optional(Type.String()),
    pluginPath: Type.Optional(Type.String()),
    contextWindow: NonNegInt,
    /** the effective compaction reserve after OpenClaw's floor and cap */
    reserveTokens: NonNegInt,
    keepRecentTokens: NonNegInt,
    host: HostRecordSchema,
    /** the session this lane replays (a key of Recording.sessions) */
    sessionId: Type.String(),
    sessionKey: Nullable(Type.String()),
    parentLane: Type.Optional(Type.String()),
    childSessionKey: Type.Optional(Type.String()),
    spawnedAtTurn: Type.Optional(NonNegInt),
    /** the lane could not run at all (plugin failed to load, ...) */
    error: Type.Optional(Type.String()),
    turnCount: NonNegInt,
  },
  { additionalProperties: false },
);
export type LaneRecord = Static<typeof LaneRecordSchema>;

export const SessionProblemSchema = Type.Object(
  { line: Type.Integer(), code: Type.String(), message: Type.String() },
  { additionalProperties: false },
);

export const SessionInfoSchema = Type.Object(
  {
    sessionId: Type.String(),
    path: Nullable(Type.String()),
    cwd: Nullable(Type.String()),
    startedAt: Nullable(Type.String()),
    entryCount: NonNegInt,
    /** every message of the active branch in order (entry ids); omitted/summarized ranges index into this */
    messageKeys: Type.Array(Type.String()),
    /** user turns: the index in messageKeys of each turn's user prompt */
    turnStarts: Type.Array(NonNegInt),
    recordedCompactions: Type.Array(
      Type.Object(
        {
          entryId: Type.String(),
          /** the turn during which it was recorded (it follows that turn's user prompt; 0 for the prelude) */
          turn: NonNegInt,
          summary: Type.String(),
          firstKeptEntryId: Type.String(),
          tokensBefore: Type.Number(),
        },
        { additionalProperties: false },
      ),
    ),
    problems: Type.Array(SessionProblemSchema),
  },
  { additionalProperties: false },
);
export type SessionInfo = Static<typeof SessionInfoSchema>;

export const ReplayOptionsRecordSchema = Type.Object(
  {
    honourRecordedCompactions: Type.Boolean(),
    checkDeterminism: Type.Boolean(),
    /** estimate-drift threshold as a fraction (0.5 = ±50 %) */
    driftThreshold: Type.Number({ minimum: 0 }),
    systemPrompt: Type.String(),
    transcriptFiles: Type.Union([Type.Literal('write'), Type.Literal('none')]),
  },
  { additionalProperties: false },
);

export const RecordingSchema = Type.Object(
  {
    schemaVersion: Type.Literal(RECORDING_SCHEMA_VERSION),
    createdAt: Type.String(),
    generator: Type.Object({ name: Type.String(), version: Type.String() }, { additionalProperties: false }),
    /** the root session */
    session: SessionInfoSchema,
    /** child sessions replayed as subagent lanes, by sessionId */
    childSessions: Type.Record(Type.String(), SessionInfoSchema),
    options: ReplayOptionsRecordSchema,
    lanes: Type.Array(LaneRecordSchema),
    /** every distinct message, stored once, by key (entry id or h:<sha1 prefix>) */
    messages: Type.Record(Type.String(), MessageRecordSchema),
    /** turns[laneId][turnIndex] */
    turns: Type.Record(Type.String(), Type.Array(TurnRecordSchema)),
    /** events not tied to one turn (lane setup, end of replay) */
    events: Type.Array(ReplayEventSchema),
    findings: Type.Array(FindingSchema),
    stats: Type.Object(
      {
        wallMs: Type.Number({ minimum: 0 }),
        tokenizer: Type.Object(
          {
            hits: NonNegInt,
            misses: NonNegInt,
            /** characters the tokenizer ran on (each distinct line once; see backgroundTokenCounter.ts) */
            charsTokenized: Type.Optional(NonNegInt),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type Recording = Static<typeof RecordingSchema>;

/** The per-turn, per-lane record everything in the UI is drawn from. */
import { Type, type Static } from '@sinclair/typebox';
import { AssembledRefSchema, EngineCallSchema, IndexRangeSchema } from './basics';
import { NonNegInt, Nullable } from './schemaHelpers';
import { ReplayEventSchema } from './events';
import { WireViewSchema } from './wire';

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
    /** OpenClaw 2026.8+: the precheck only logged its route and the prompt was sent anyway */
    onlyLogged: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type PrecheckRecord = Static<typeof PrecheckRecordSchema>;

/**
 * Whether the provider overflowed on an attempt's prompt, and which source decided it: `recorded` — the lane sends
 * what OpenClaw sent for a recorded request, so the provider's own answer decides (an overflow error, else its
 * usage against the window); `scaled` — the lane sends something else, so its tiktoken count is scaled by the
 * session's measured provider/tiktoken ratio for the model; `tiktoken` — the session has no usage for the model;
 * `never` — the provider truncates silently (Ollama) and never reports an overflow.
 */
export const ProviderCheckSchema = Type.Object(
  {
    /** the attempt it was made on (0-based; overflow-recovery retries are later attempts) */
    attempt: NonNegInt,
    source: Type.Union([
      Type.Literal('recorded'),
      Type.Literal('scaled'),
      Type.Literal('tiktoken'),
      Type.Literal('never'),
    ]),
    overflowed: Type.Boolean(),
    /** the prompt in the provider's tokens, as the source gives it (absent: a recorded overflow that names no count) */
    providerTokens: Type.Optional(NonNegInt),
    /** the local tiktoken count of assembled + system prompt + prompt */
    tiktokenTokens: NonNegInt,
    /** `provider/model` of the request */
    model: Type.String(),
    /** scaled: provider tokens per tiktoken token, measured on the session's recorded turns of this model */
    ratio: Type.Optional(Type.Number({ minimum: 0 })),
    /** scaled: provider tokens the local count does not see (the system prompt and tools OpenClaw sent) */
    overheadTokens: Type.Optional(NonNegInt),
    /** scaled: how many recorded turns the ratio was measured on */
    measuredTurns: Type.Optional(NonNegInt),
    /** recorded: the entry of the recorded assistant message that answered the request */
    recordedEntryId: Type.Optional(Type.String()),
    /** recorded: the provider's error on that request */
    recordedError: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ProviderCheck = Static<typeof ProviderCheckSchema>;

/**
 * Which path the host took for this logical turn (OpenClaw 2026.8+ decides it per turn): the configured engine or
 * the legacy fallback, and how the turn was finalized.
 */
export const TurnPathSchema = Type.Object(
  {
    engine: Type.Union([Type.Literal('configured'), Type.Literal('legacy-fallback')]),
    /** why the turn ran on legacy (OpenClaw's degrade reason) */
    degradedReason: Type.Optional(Type.String()),
    finalize: Type.Union([
      Type.Literal('afterTurn'),
      Type.Literal('ingestBatch'),
      Type.Literal('ingest'),
      Type.Literal('commitTurn'),
      Type.Literal('none'),
    ]),
    /** commitTurn's outcome: committed/duplicate as the engine answered, discarded (turn not accepted), skipped, failed */
    commit: Type.Optional(
      Type.Union([
        Type.Literal('committed'),
        Type.Literal('duplicate'),
        Type.Literal('discarded'),
        Type.Literal('skipped'),
        Type.Literal('failed'),
      ]),
    ),
    /** the commitTurn advancement key (the logical turn id) */
    advancementKey: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type TurnPath = Static<typeof TurnPathSchema>;

/** One plugin hook point a replayed turn ran (issue 21: the hooks a replay can simulate, run in the engine host). */
export const HookRunSchema = Type.Object(
  {
    /** the hook name (`before_prompt_build`, `before_compaction`, `agent_end`, …) */
    name: Type.String(),
    /** the attempt it ran in (prompt-build hooks run once per attempt, as in OpenClaw) */
    attempt: Type.Optional(NonNegInt),
    /** handlers run (in priority order) */
    handlers: NonNegInt,
    /** whether what the hooks returned changed the turn (prompt, system prompt, a persisted tool result) */
    changed: Type.Boolean(),
    /** what they returned or were given, in a line */
    summary: Type.String(),
    /** handler failures (OpenClaw logs them and goes on) */
    errors: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type HookRun = Static<typeof HookRunSchema>;

/** What the prompt-build hooks (before_prompt_build, before_agent_start) applied to the sent prompt, merged. */
export const PromptHookEffectSchema = Type.Object(
  {
    /** a hook's systemPrompt replacing the system prompt */
    systemPrompt: Type.Optional(Type.String()),
    /** the plugin system context put before / after the system prompt (OpenClaw's fenced section) */
    prependSystemContext: Type.Optional(Type.String()),
    appendSystemContext: Type.Optional(Type.String()),
    /** text put before / after the user prompt */
    prependContext: Type.Optional(Type.String()),
    appendContext: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type PromptHookEffect = Static<typeof PromptHookEffectSchema>;

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
    /** the provider-overflow check of each attempt whose prompt passed the precheck (absent in older files) */
    providerChecks: Type.Optional(Type.Array(ProviderCheckSchema)),
    calls: Type.Array(EngineCallSchema),
    events: Type.Array(ReplayEventSchema),
    /** the recorded output of this turn appended to the lane transcript (user prompt, assistant, tool results) */
    newMessageKeys: Type.Array(Type.String()),
    turnPath: Type.Optional(TurnPathSchema),
    /** the plugin hook points this turn ran, in order (plugin lanes whose plugin registered hooks) */
    hooks: Type.Optional(Type.Array(HookRunSchema)),
    /** what the prompt-build hooks of the last attempt applied to the prompt and system prompt */
    promptHooks: Type.Optional(PromptHookEffectSchema),
    /**
     * the messages (table keys) of the turn's first model call, when an engine that owns compaction assembled them
     * again at that call and they are not `assembled` + the prompt (src/replay/lane/steps/modelCallHook.ts): what
     * the model got instead
     */
    modelCallKeys: Type.Optional(Type.Array(Type.String())),
    /** the chat request OpenClaw builds from `assembled` + the prompt (or `modelCallKeys`) for this release (src/replay/wire) */
    asSent: Type.Optional(WireViewSchema),
  },
  { additionalProperties: false },
);
export type TurnRecord = Static<typeof TurnRecordSchema>;

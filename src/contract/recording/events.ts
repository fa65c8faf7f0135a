/** Events of a replayed turn or lane: compaction, quarantine, subagent lifecycle, host requirements, warnings. */
import { Type, type Static } from '@sinclair/typebox';
import { CompactionTriggerSchema } from './basics';
import { NonNegInt, Nullable } from './schemaHelpers';

const EventBase = {
  lane: Type.String(),
  turn: Nullable(NonNegInt),
  /** order of the event within the whole replay */
  seq: NonNegInt,
};

/**
 * Why a compaction ran, with the figures it was decided on (src/view/compactionCause.ts puts them in a line):
 * - `precheck`: the pre-prompt precheck's estimate of the prompt (assembled or whole-transcript messages + system
 *   prompt + prompt) exceeded the compaction threshold (window − effective reserve) on that attempt;
 * - `provider`: the provider rejected the attempt's prompt (the turn's `providerChecks[attempt]` says on which count);
 * - `context`: after the turn the context (recorded usage + what came after, or the lane's estimate) exceeded
 *   window − reserve, the harness's threshold — or, for an engine that owns compaction on 2026.6/2026.7, the larger
 *   of the session's estimate and the provider's count of the turn's prompt exceeded the prompt budget
 *   (src/replay/lane/steps/budgetCheckAfterTurn.ts);
 * - `request`: /compact was asked for before the turn;
 * - `shrank`: an engine that owns compaction sent a smaller context than the turn before had plus what that turn
 *   added, without a compact() call: it compacted on its own (in afterTurn or ingest).
 */
export const CompactionCauseSchema = Type.Union([
  Type.Object(
    {
      measure: Type.Literal('precheck'),
      attempt: NonNegInt,
      tokens: NonNegInt,
      limit: NonNegInt,
      source: Type.Union([Type.Literal('assembled'), Type.Literal('unwindowed_transcript_estimate')]),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { measure: Type.Literal('provider'), attempt: NonNegInt, tokens: Type.Optional(NonNegInt), limit: NonNegInt },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      measure: Type.Literal('context'),
      tokens: NonNegInt,
      limit: NonNegInt,
      source: Type.Union([Type.Literal('recorded usage'), Type.Literal('estimate')]),
    },
    { additionalProperties: false },
  ),
  /** the session after the run (its messages' precheck estimate, or its last prompt's usage) over the prompt budget */
  Type.Object(
    {
      measure: Type.Literal('session'),
      tokens: NonNegInt,
      limit: NonNegInt,
      source: Type.Union([Type.Literal('session estimate'), Type.Literal('prompt usage')]),
    },
    { additionalProperties: false },
  ),
  Type.Object({ measure: Type.Literal('request') }, { additionalProperties: false }),
  Type.Object({ measure: Type.Literal('shrank') }, { additionalProperties: false }),
]);
export type CompactionCause = Static<typeof CompactionCauseSchema>;

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
    /** why it ran (absent for a recorded compaction and in recordings made before it was recorded) */
    cause: Type.Optional(CompactionCauseSchema),
  },
  { additionalProperties: false },
);

/** A quarantine as the runtime lists it (`listContextEngineQuarantines`): which engine, owner, operation, why, when. */
export const QuarantineFields = {
  engineId: Type.String(),
  owner: Type.Optional(Type.String()),
  operation: Type.String(),
  reason: Type.String(),
  failedAt: Type.Number(),
};

export const QuarantineEventSchema = Type.Object(
  {
    type: Type.Literal('quarantine'),
    ...EventBase,
    ...QuarantineFields,
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

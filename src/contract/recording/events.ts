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

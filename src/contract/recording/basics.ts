/**
 * The Recording: everything one replay produced, as a versioned JSON document (schemaVersion 1).
 *
 * Defined once here with typebox; the TypeScript types are derived from the schema, `importRecording` validates
 * against it, and `src/replay/README.md` documents every field. Size is kept linear in session length:
 * each distinct message is stored once in `messages` (keyed by identity) and turns reference keys; the
 * transcript messages an engine left out are stored as index ranges into the session's message order.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NonNegInt, Nullable } from './schemaHelpers';

export const RECORDING_SCHEMA_VERSION = 1;

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
  'compaction-failed',
  'engine-call-failed',
  'estimate-drift',
  'orphaned-tool-call',
  'orphaned-tool-result',
  'assistant-first',
  'non-deterministic',
  'over-budget',
  'void-result',
  'invalid-result',
  'session-problem',
  'quarantined',
  'host-unsupported',
  'assemble-failed',
  'keep-recent-exceeds-budget',
  'plugin-hooks-not-run',
  'turn-degraded-to-legacy',
  'turn-commit-skipped',
  'provider-error',
  'access-denied',
  'host-unconfined',
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
  /** an engine that owns compaction compacted on its own, seen by its assembled context shrinking */
  Type.Literal('engine'),
  /**
   * after the run, `openclaw agent`'s budget check compacted through the lane's engine (OpenClaw's `trigger:
   * "budget"`; legacy: src/replay/lane/turnBudgetCompaction.ts, an owning engine: steps/budgetCheckAfterTurn.ts)
   */
  Type.Literal('budget'),
]);
export type CompactionTrigger = Static<typeof CompactionTriggerSchema>;

/**
 * The recorded lane: what OpenClaw's own trajectory says the model received (`context.compiled`), shown as a
 * read-only lane (`LaneRecord.source: "trajectory"`), and per turn whether a replayed lane reproduces it.
 */
import { Type, type Static } from '@sinclair/typebox';
import { NonNegInt, Nullable } from './schemaHelpers';

/** Where the trajectory was read: `<session>.trajectory.jsonl` (2026.7.x) or the agent database's rows (2026.8+). */
export const TrajectorySourceSchema = Type.Object(
  {
    storage: Type.Union([Type.Literal('jsonl'), Type.Literal('sqlite')]),
    /** the trajectory file, or the agent database */
    location: Type.String(),
  },
  { additionalProperties: false },
);
export type TrajectorySource = Static<typeof TrajectorySourceSchema>;

export const TrajectoryVerdictSchema = Type.Union(
  [Type.Literal('exact'), Type.Literal('differs'), Type.Literal('not-recorded'), Type.Literal('unverifiable')],
  {
    description:
      'exact = the replayed lane assembled what OpenClaw recorded (after undoing the trajectory truncation and ' +
      'redaction); differs = it did not (see difference); not-recorded = the trajectory has no context.compiled ' +
      'for the turn; unverifiable = the recorded event was cut whole (over 256 KiB) or the compared lane has no turn.',
  },
);
export type TrajectoryVerdict = Static<typeof TrajectoryVerdictSchema>;

export const TrajectoryTurnSchema = Type.Object(
  {
    /** 0-based turn */
    turn: NonNegInt,
    verdict: TrajectoryVerdictSchema,
    runId: Nullable(Type.String()),
    /** recorded messages (the original count when the trajectory cut the list at 64) and replayed ones */
    recordedCount: Nullable(NonNegInt),
    replayedCount: Nullable(NonNegInt),
    /** the recorded context carried truncation or redaction marks */
    truncated: Type.Boolean(),
    /** the first difference: message index in the context, field inside it, both values (shortened) */
    difference: Type.Optional(
      Type.Object(
        { index: NonNegInt, field: Type.String(), recorded: Type.String(), replayed: Type.String() },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type TrajectoryTurn = Static<typeof TrajectoryTurnSchema>;

export const TrajectoryReportSchema = Type.Object(
  {
    /** the recorded lane's id */
    lane: Type.String(),
    /** the lane the verdicts compare against (the first root legacy lane, else the first root lane) */
    against: Nullable(Type.String()),
    source: TrajectorySourceSchema,
    /** context.compiled events read, and those that belong to no turn of the session */
    contexts: NonNegInt,
    unaligned: NonNegInt,
    turns: Type.Array(TrajectoryTurnSchema),
    exact: NonNegInt,
    differs: NonNegInt,
  },
  { additionalProperties: false },
);
export type TrajectoryReport = Static<typeof TrajectoryReportSchema>;

/** Lanes, the replayed session and the Recording document itself. */
import { Type, type Static } from '@sinclair/typebox';
import { FindingSchema, MessageRecordSchema, RECORDING_SCHEMA_VERSION } from './basics';
import { NonNegInt, Nullable } from './schemaHelpers';
import { ReplayEventSchema } from './events';
import { TurnRecordSchema } from './turnRecord';
import { TrajectoryReportSchema, TrajectorySourceSchema } from './trajectory';

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
    /** `trajectory`: the read-only recorded lane (what OpenClaw's trajectory says the model received) */
    source: Type.Union([
      Type.Literal('legacy'),
      Type.Literal('plugin'),
      Type.Literal('in-process'),
      Type.Literal('trajectory'),
    ]),
    /** set on the recorded lane: where its contexts were read; it is not an engine and cannot be re-run */
    recorded: Type.Optional(TrajectorySourceSchema),
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
    /** plugin lanes: the deadline for each engine call, in ms (a call past it quarantines the engine) */
    callTimeoutMs: Type.Optional(NonNegInt),
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
    /** the OpenClaw release the replay behaved as (absent in recordings made before versions were modelled) */
    openclawVersion: Type.Optional(Type.String()),
    /** how that release was chosen: `flag`, `inferred` (from `from`) or `newest` */
    openclawVersionChoice: Type.Optional(
      Type.Object(
        {
          how: Type.Union([Type.Literal('flag'), Type.Literal('inferred'), Type.Literal('newest')]),
          from: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
    ),
    /** where each lane setting came from (flag | openclaw.json | session model | version default) and the openclaw.json read */
    settingSources: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** the release line's profile and what it changes */
    openclawProfile: Type.Optional(
      Type.Object({ line: Type.String(), changes: Type.Array(Type.String()) }, { additionalProperties: false }),
    ),
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
    /** the recorded lane's per-turn verdicts, when the session has an OpenClaw trajectory */
    trajectory: Type.Optional(TrajectoryReportSchema),
    /** set when the replay was cancelled: the recording holds the root lane-turns done of those planned */
    partial: Type.Optional(
      Type.Object(
        { reason: Type.Literal('cancelled'), done: NonNegInt, total: NonNegInt },
        { additionalProperties: false },
      ),
    ),
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

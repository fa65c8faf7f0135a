import { Type, type Static } from '@sinclair/typebox';

/**
 * What a replay is asked for, whoever asks: the CLI's flags, `replay.start` and `batch.start` all become this
 * request, and `buildReplayPlan` (src/replay/plan) turns it into the one plan a replay runs (settings with their
 * sources, lanes, plugin loading). The bridge schemas spread these fields, so the request is defined once.
 */

const LaneCommonFields = {
  /** this lane's context window (default: the request's window, else openclaw.json's, else 200000) */
  window: Type.Optional(Type.Integer({ minimum: 1 })),
  /** this lane's configured compaction reserveTokens */
  reserve: Type.Optional(Type.Integer({ minimum: 0 })),
  /** embedded | codex | cli:<backendId> | agent-harness:<id> */
  host: Type.Optional(Type.String({ minLength: 1 })),
  label: Type.Optional(Type.String({ minLength: 1 })),
};

/**
 * A lane as data: what a lane spec string (`legacy?…`, `plugin:<path-or-id>?…`, CLI syntax) says, field by field.
 * src/replay/lane/laneSpec.ts prints it as that string and parses the string back: the one place of the syntax.
 */
export const LaneSchema = Type.Union([
  Type.Object({ kind: Type.Literal('legacy'), ...LaneCommonFields }, { additionalProperties: false }),
  Type.Object(
    {
      kind: Type.Literal('plugin'),
      /** the plugin's folder, or its id (found through discovery) */
      plugin: Type.String({ minLength: 1 }),
      /** the plugin's config (plugins.entries.<id>.config) as a JSON/JSON5 file */
      configFile: Type.Optional(Type.String({ minLength: 1 })),
      /** the plugin's config itself, as JSON5 text */
      configText: Type.Optional(Type.String({ minLength: 1 })),
      /** which of the plugin's registered engines the lane selects (default: the first) */
      engineId: Type.Optional(Type.String({ minLength: 1 })),
      /** the deadline for each engine call, in ms */
      timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
      /** the largest result taken from the engine host, in bytes */
      maxResultBytes: Type.Optional(Type.Integer({ minimum: 1 })),
      /** child processes / worker threads asked for the engine host */
      allow: Type.Optional(
        Type.Object(
          { childProcess: Type.Optional(Type.Boolean()), worker: Type.Optional(Type.Boolean()) },
          { additionalProperties: false },
        ),
      ),
      /** how values cross the engine-host channel: message references (default) or every value whole */
      hostCodec: Type.Optional(Type.Union([Type.Literal('refs'), Type.Literal('json')])),
      ...LaneCommonFields,
    },
    { additionalProperties: false },
  ),
]);
export type LaneRequest = Static<typeof LaneSchema>;

/** The fields of a replay request (spread into replay.start's and batch.start's schemas). */
export const ReplayRequestFields = {
  /** a lane spec as typed on the CLI, or the lane as data (what an app sends for the lanes it lists) */
  lanes: Type.Array(Type.Union([Type.String({ minLength: 1 }), LaneSchema]), { minItems: 1, maxItems: 8 }),
  /** overrides of what the session's openclaw.json and release say (absent: theirs) */
  window: Type.Optional(Type.Integer({ minimum: 1 })),
  /** configured compaction reserveTokens (OpenClaw's floor and cap apply) */
  reserve: Type.Optional(Type.Integer({ minimum: 0 })),
  /** agents.defaults.compaction.keepRecentTokens of every lane */
  keepRecentTokens: Type.Optional(Type.Integer({ minimum: 1 })),
  /** recorded only (OpenClaw's compaction mode) */
  compactionMode: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('safeguard')])),
  /** the OpenClaw release to replay as (e.g. 2026.9.6; default: the one that wrote the session, else the newest) */
  openclawVersion: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  /** the host of every lane without host= (embedded | codex | cli:<backendId> | agent-harness:<id>) */
  host: Type.Optional(Type.String({ minLength: 1 })),
  /** the state dir whose openclaw.json applies and whose extensions are discovered (default: the session's) */
  stateDir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  honourRecordedCompactions: Type.Optional(Type.Boolean()),
  checkDeterminism: Type.Optional(Type.Boolean()),
  driftThreshold: Type.Optional(Type.Number({ minimum: 0 })),
  /** the deadline for each plugin engine call, in ms (default 30000; a lane's timeoutMs wins) */
  callTimeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
  systemPrompt: Type.Optional(Type.String()),
  replaySubagents: Type.Optional(Type.Boolean()),
};

export const ReplayRequestSchema = Type.Object(ReplayRequestFields, { additionalProperties: false });
export type ReplayRequest = Static<typeof ReplayRequestSchema>;

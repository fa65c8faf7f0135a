import { Type, type Static } from '@sinclair/typebox';
import {
  EncodedTurnRecordSchema,
  LaneRecordSchema,
  MessageRecordSchema,
  RecordingSchema,
} from '../../contract/recording';
import { defineMethods } from '../methodSpec';
import { ReplayRequestFields } from './replayRequest';

/**
 * `replay.start`: a session and the replay request every front end shares (replayRequest.ts: lanes as CLI lane
 * specs or as data, settings overrides, plugin loading).
 */
export const ReplayStartRequestSchema = Type.Object(
  {
    /** a session .jsonl file, or a folder (sessions dir or state dir: its most recent session) */
    sessionPath: Type.String({ minLength: 1 }),
    ...ReplayRequestFields,
    /**
     * plugins.requestConsent's nonce (purpose "run"): the plugins it names run without a remembered consent, once.
     * There is no allowExecute flag: consent is granted by the main process, never by a request.
     */
    consentNonce: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** live mode: keep following the session while OpenClaw writes it, replaying each change (cancel to stop) */
    follow: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ReplayStartRequest = Static<typeof ReplayStartRequestSchema>;

export const ReplayStartResponseSchema = Type.Object(
  { replayId: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

/** Event topic `replay.progress`: a lane finished a turn. */
export const ReplayProgressEventSchema = Type.Object(
  {
    replayId: Type.String({ minLength: 1 }),
    lane: Type.String(),
    /** the turn just finished (0-based) */
    turn: Type.Integer({ minimum: 0 }),
    /** turns that lane replays (the active branch of its session) */
    total: Type.Integer({ minimum: 0 }),
    /** set for subagent lanes: their turns are not counted in replay.get's done/total */
    parentLane: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type ReplayProgressEvent = Static<typeof ReplayProgressEventSchema>;

export const ReplayStatusSchema = Type.Union([
  Type.Literal('running'),
  Type.Literal('done'),
  Type.Literal('failed'),
  Type.Literal('cancelled'),
]);

export const ReplayGetRequestSchema = Type.Object(
  {
    replayId: Type.String({ minLength: 1 }),
    /** only this lane's turns (and the messages they reference) */
    lane: Type.Optional(Type.String({ minLength: 1 })),
    fromTurn: Type.Optional(Type.Integer({ minimum: 0 })),
    toTurn: Type.Optional(Type.Integer({ minimum: 0 })),
    /** live mode: leave the recording out unless a pass after this one has finished (what a poll already has) */
    afterPass: Type.Optional(Type.Integer({ minimum: 0 })),
    /** a page of the recording from this turn position (lanes in order, 0 to its turn count): `page`, not `recording` */
    from: Type.Optional(Type.Integer({ minimum: 0 })),
    /** at most this many turns in the page (with `from`; default as many as fit in 512 KiB) */
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);

/** One page of a recording (`replay.get` with `from`): its turns as replay.stream pages carry them. */
export const RecordingPageSchema = Type.Object(
  {
    from: Type.Integer({ minimum: 0 }),
    /** where the next page starts */
    next: Type.Integer({ minimum: 0 }),
    /** turns in the recording, all lanes */
    total: Type.Integer({ minimum: 0 }),
    more: Type.Boolean(),
    /** live mode: the pass the page belongs to (a new pass means reading again from 0) */
    pass: Type.Optional(Type.Integer({ minimum: 0 })),
    /** the Recording without turns and messages, on the page from 0 */
    head: Type.Optional(Type.Omit(RecordingSchema, ['turns', 'messages'])),
    /** a head too large for a page comes first in pieces of its JSON text, one a page (joined, they parse to it) */
    headText: Type.Optional(Type.String()),
    /** `assembled` and `asSent.messages` as deltas against the lane's previous turn (src/view/listDelta.ts) */
    turns: Type.Array(EncodedTurnRecordSchema),
    /** the messages these turns are the first of the recording to reference */
    messages: Type.Record(Type.String(), MessageRecordSchema),
  },
  { additionalProperties: false },
);

export const ReplayGetResponseSchema = Type.Object(
  {
    replayId: Type.String(),
    status: ReplayStatusSchema,
    /** root lane-turns finished so far, of `total` = root lanes × turns of the session's active branch */
    done: Type.Integer({ minimum: 0 }),
    total: Type.Integer({ minimum: 0 }),
    error: Type.Optional(Type.String()),
    /** live mode: the session is being followed; `recording` is the latest pass (it grows as turns arrive) */
    following: Type.Optional(Type.Boolean()),
    /** live mode: how many passes finished (a client shows the recording again when this grows) */
    passes: Type.Optional(Type.Integer({ minimum: 0 })),
    /**
     * present once the replay is done, or after each pass in live mode (sliced when lane/fromTurn/toTurn are given),
     * when it fits in one bridge message (under 900 kB of JSON)
     */
    recording: Type.Optional(RecordingSchema),
    /** the recording is there but too large for one message: read it with `from` (and `count`) */
    paged: Type.Optional(Type.Literal(true)),
    /** with `from`: that page of the recording */
    page: Type.Optional(RecordingPageSchema),
  },
  { additionalProperties: false },
);
export type ReplayGetResponse = Static<typeof ReplayGetResponseSchema>;

/** `replay.stream`: the next page of a replay's turns, read while it runs (each page well under 1 MB). */
export const ReplayStreamRequestSchema = Type.Object(
  {
    replayId: Type.String({ minLength: 1 }),
    /** the generation the cursor belongs to (a page of another generation starts again at 0) */
    generation: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('final')])),
    cursor: Type.Optional(Type.Integer({ minimum: 0 })),
    /** JSON bytes a page stays under (default 512 KiB; one turn larger than this still travels alone) */
    maxBytes: Type.Optional(Type.Integer({ minimum: 1024, maximum: 1_000_000 })),
  },
  { additionalProperties: false },
);

export const ReplayStreamResponseSchema = Type.Object(
  {
    replayId: Type.String(),
    status: ReplayStatusSchema,
    done: Type.Integer({ minimum: 0 }),
    total: Type.Integer({ minimum: 0 }),
    error: Type.Optional(Type.String()),
    following: Type.Optional(Type.Boolean()),
    passes: Type.Optional(Type.Integer({ minimum: 0 })),
    /** `live`: turns as lanes finish them; `final`: the finished (or cancelled, partial) Recording */
    generation: Type.Union([Type.Literal('live'), Type.Literal('final')]),
    /** where the next page starts */
    cursor: Type.Integer({ minimum: 0 }),
    /** more turns are ready now (ask again at once) */
    more: Type.Boolean(),
    /** ms since the replay started */
    elapsedMs: Type.Number({ minimum: 0 }),
    lanes: Type.Array(LaneRecordSchema),
    /** the Recording without turns and messages: on a generation's first page that has turns */
    head: Type.Optional(Type.Omit(RecordingSchema, ['turns', 'messages'])),
    /** instead of `head` when it is over 256 KiB: a piece of its JSON text, one a page before the turns */
    headText: Type.Optional(Type.String()),
    /** `assembled` and `asSent.messages` as deltas against the lane's previous turn (src/view/listDelta.ts) */
    turns: Type.Array(EncodedTurnRecordSchema),
    /** the messages these turns are the first of the generation to reference */
    messages: Type.Record(Type.String(), MessageRecordSchema),
  },
  { additionalProperties: false },
);
export type ReplayStreamResponse = Static<typeof ReplayStreamResponseSchema>;

export const ReplayExportRequestSchema = Type.Object(
  {
    replayId: Type.String({ minLength: 1 }),
    format: Type.Union([Type.Literal('json'), Type.Literal('html')]),
    // no path: a bridge caller never names a file to write; the renderer downloads the content (the user's browser
    // or the Electron shell chooses where it goes)
  },
  { additionalProperties: false },
);

export const ReplayExportResponseSchema = Type.Object(
  {
    format: Type.Union([Type.Literal('json'), Type.Literal('html')]),
    bytes: Type.Integer({ minimum: 0 }),
    path: Type.Optional(Type.String()),
    /** the whole export (an answer over 1 MB travels in `bridge.piece` pieces, like any other) */
    content: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const ReplayCancelRequestSchema = Type.Object(
  { replayId: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);
export const ReplayCancelResponseSchema = Type.Object({ cancelled: Type.Boolean() }, { additionalProperties: false });

export const SessionsListRequestSchema = Type.Object(
  {
    /** an OpenClaw state dir or a folder of transcripts (default: the bundled demo sessions) */
    stateDir: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const ListedSessionSchema = Type.Object(
  {
    sessionId: Type.String(),
    /**
     * what replay.start and replay.defaults take as sessionPath, naming this row's session and no other: the
     * transcript file, or `<agent database>#<session key | archive name>` (SQLite: looked up in that database only)
     */
    file: Type.String(),
    storage: Type.Optional(Type.Union([Type.Literal('jsonl'), Type.Literal('sqlite')])),
    agentId: Type.String(),
    key: Type.Optional(Type.String()),
    isSubagent: Type.Boolean(),
    archived: Type.Boolean(),
    size: Type.Integer({ minimum: 0 }),
    mtimeMs: Type.Number(),
    parentSessionId: Type.Optional(Type.String()),
    childSessionIds: Type.Array(Type.String()),
    /** entries in the file (all branches); absent when the transcript could not be read */
    entries: Type.Optional(Type.Integer({ minimum: 0 })),
    /** user messages on the active branch: the turns a replay replays */
    turns: Type.Optional(Type.Integer({ minimum: 0 })),
    /** messages on the active branch (src/view sessionCounts: what the HTML report and `generate` count too) */
    messages: Type.Optional(Type.Integer({ minimum: 0 })),
    /**
     * why the transcript is no session a replay can read (not a transcript, UTF-16, empty, unreadable), in the
     * words replay.start would refuse it with; the counts are then absent
     */
    problem: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export const SessionsListResponseSchema = Type.Object(
  { stateDir: Type.String(), sessions: Type.Array(ListedSessionSchema) },
  { additionalProperties: false },
);

const SettingSourceSchema = Type.Union([
  Type.Literal('flag'),
  Type.Literal('openclaw.json'),
  Type.Literal('session model'),
  Type.Literal('version default'),
]);

/** `replay.defaults`: the settings a replay of this session uses by default (the ones OpenClaw used). */
export const ReplayDefaultsRequestSchema = Type.Object(
  {
    /** as replay.start's sessionPath */
    sessionPath: Type.String({ minLength: 1 }),
    /** the state dir whose openclaw.json applies (default: the one the session lies in) */
    stateDir: Type.Optional(Type.String({ minLength: 1 })),
    /** resolve for this release instead of the inferred one */
    openclawVersion: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  { additionalProperties: false },
);

export const ReplayDefaultsResponseSchema = Type.Object(
  {
    settings: Type.Object(
      {
        openclawVersion: Type.String(),
        contextWindow: Type.Integer({ minimum: 1 }),
        /** configured reserve, before the release's floor/cap */
        reserveTokens: Type.Integer({ minimum: 0 }),
        /** null: the release's floor (20000) */
        reserveTokensFloor: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
        keepRecentTokens: Type.Integer({ minimum: 1 }),
        compactionMode: Type.Union([Type.Literal('default'), Type.Literal('safeguard')]),
        compactionEnabled: Type.Boolean(),
        /** provider/modelId the session ran with */
        model: Type.Union([Type.String(), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    sources: Type.Object(
      {
        openclawVersion: Type.Union([Type.Literal('flag'), Type.Literal('inferred'), Type.Literal('newest')]),
        contextWindow: SettingSourceSchema,
        reserveTokens: SettingSourceSchema,
        reserveTokensFloor: SettingSourceSchema,
        keepRecentTokens: SettingSourceSchema,
        compactionMode: SettingSourceSchema,
        compactionEnabled: SettingSourceSchema,
        model: SettingSourceSchema,
      },
      { additionalProperties: false },
    ),
    /** for an inferred version: where it came from */
    openclawVersionFrom: Type.Optional(Type.String()),
    /** the reserve and prompt budget the release derives at this window */
    effective: Type.Object(
      { reserveTokens: Type.Integer({ minimum: 0 }), promptBudget: Type.Integer({ minimum: 1 }) },
      { additionalProperties: false },
    ),
    configPath: Type.Union([Type.String(), Type.Null()]),
    notes: Type.Array(Type.String()),
    profile: Type.Object({ line: Type.String(), changes: Type.Array(Type.String()) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type ReplayDefaultsResponse = Static<typeof ReplayDefaultsResponseSchema>;

export const replayTopics = {
  'replay.progress': ReplayProgressEventSchema,
};

export const replayMethods = defineMethods({
  'replay.start': {
    summary:
      'Start replaying a recorded session through lanes; answers at once with an id, then emits replay.progress events.',
    request: ReplayStartRequestSchema,
    response: ReplayStartResponseSchema,
  },
  'replay.get': {
    summary:
      "A replay's status and, once done, its Recording (or one lane's turns / a turn range of it): whole when it fits in one message, else in pages (from, count) under 1 MB.",
    request: ReplayGetRequestSchema,
    response: ReplayGetResponseSchema,
  },
  'replay.stream': {
    summary:
      "The next page of a replay's turns while it runs, then of its Recording once done or cancelled (pages stay under 1 MB).",
    request: ReplayStreamRequestSchema,
    response: ReplayStreamResponseSchema,
  },
  'replay.export': {
    summary:
      'Export a finished replay as JSON (re-importable) or as a standalone HTML report, inline and whole (over 1 MB it travels in bridge.piece pieces).',
    request: ReplayExportRequestSchema,
    response: ReplayExportResponseSchema,
  },
  'replay.cancel': {
    summary: 'Cancel a running replay (it stops before its next turn).',
    request: ReplayCancelRequestSchema,
    response: ReplayCancelResponseSchema,
  },
  'replay.defaults': {
    summary:
      "The settings a replay of a session uses by default — its OpenClaw release, the state dir's openclaw.json, the session model — with each value's source.",
    request: ReplayDefaultsRequestSchema,
    response: ReplayDefaultsResponseSchema,
  },
  'sessions.list': {
    summary: 'Sessions found in an OpenClaw state dir (default: the bundled demo sessions), newest first.',
    request: SessionsListRequestSchema,
    response: SessionsListResponseSchema,
  },
});

import { Type, type Static } from '@sinclair/typebox';
import { defineMethods } from '../methodSpec';
import { PagedRecordingFields, PageRequestFields } from './pagedRecording';
import { ReplayRequestFields } from './replayRequest';

/**
 * `batch.*`: one replay configuration over every top-level session of a state dir, on a worker pool
 * (src/replay/batch). `batch.start` answers at once; `batch.get` gives every session's row as sessions finish.
 */
export const BatchStartRequestSchema = Type.Object(
  {
    /** replay.start's request, applied to every session (settings absent: each session's openclaw.json, else the release's) */
    ...ReplayRequestFields,
    /** the state dir (or folder of transcripts) whose sessions are replayed (and whose openclaw.json applies) */
    stateDir: Type.String({ minLength: 1, maxLength: 4096 }),
    // no allowExecute: plugin lanes run for plugin folders the person approved (the consent file), or confirmed
    /** plugins.requestConsent's nonce (purpose "run"): the plugins it names run for this batch only */
    consentNonce: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** sessions replayed at once (default: one per core) */
    workers: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
  },
  { additionalProperties: false },
);
export type BatchStartRequest = Static<typeof BatchStartRequestSchema>;

export const BatchStartResponseSchema = Type.Object(
  {
    batchId: Type.String({ minLength: 1 }),
    /** sessions planned */
    total: Type.Integer({ minimum: 0 }),
    workers: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

const FindingCountsSchema = Type.Object(
  { error: Type.Integer({ minimum: 0 }), warning: Type.Integer({ minimum: 0 }), info: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

/** One lane over one session (or summed over the finished sessions in `totals`). */
export const BatchLaneFiguresSchema = Type.Object(
  {
    laneId: Type.String(),
    label: Type.String(),
    spec: Type.String(),
    /** the legacy lane the others are measured against */
    baseline: Type.Boolean(),
    /** the baseline was added by the batch (not asked for) */
    added: Type.Boolean(),
    turns: Type.Integer({ minimum: 0 }),
    compactions: Type.Integer({ minimum: 0 }),
    quarantines: Type.Integer({ minimum: 0 }),
    failedTurns: Type.Integer({ minimum: 0 }),
    /** assembled tokens (tiktoken) summed over the lane's turns */
    tokens: Type.Integer({ minimum: 0 }),
    /** the baseline's tokens minus this lane's; null without a baseline */
    savedTokens: Type.Union([Type.Integer(), Type.Null()]),
    savedFraction: Type.Union([Type.Number(), Type.Null()]),
    findings: FindingCountsSchema,
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type BatchLaneFiguresRecord = Static<typeof BatchLaneFiguresSchema>;

export const BatchRowSchema = Type.Object(
  {
    index: Type.Integer({ minimum: 0 }),
    sessionId: Type.String(),
    key: Type.Optional(Type.String()),
    agentId: Type.String(),
    storage: Type.Union([Type.Literal('jsonl'), Type.Literal('sqlite')]),
    file: Type.String(),
    status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
    /** why the session could not be loaded or replayed */
    error: Type.Optional(Type.String()),
    turns: Type.Optional(Type.Integer({ minimum: 0 })),
    lanes: Type.Array(BatchLaneFiguresSchema),
    /** findings the batch's failOn selects (0 when none was given) */
    failing: Type.Integer({ minimum: 0 }),
    /** where the runtime keeps this session's Recording (read it with batch.recording) */
    recordingFile: Type.Optional(Type.String()),
    durationMs: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type BatchRowRecord = Static<typeof BatchRowSchema>;

export const BatchTotalsSchema = Type.Object(
  {
    sessions: Type.Integer({ minimum: 0 }),
    done: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    turns: Type.Integer({ minimum: 0 }),
    lanes: Type.Array(BatchLaneFiguresSchema),
    failing: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

const BatchIdRequestSchema = Type.Object({ batchId: Type.String({ minLength: 1 }) }, { additionalProperties: false });

export const BatchGetResponseSchema = Type.Object(
  {
    batchId: Type.String(),
    status: Type.Union([Type.Literal('running'), Type.Literal('done'), Type.Literal('cancelled')]),
    stateDir: Type.String(),
    workers: Type.Integer({ minimum: 1 }),
    /** every planned session in plan order (oldest first) */
    rows: Type.Array(BatchRowSchema),
    totals: BatchTotalsSchema,
    /** listed but not replayed on their own */
    skipped: Type.Object(
      { subagents: Type.Integer({ minimum: 0 }), archived: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false },
    ),
    elapsedMs: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type BatchGetResponse = Static<typeof BatchGetResponseSchema>;

export const BatchRecordingRequestSchema = Type.Object(
  { batchId: Type.String({ minLength: 1 }), index: Type.Integer({ minimum: 0 }), ...PageRequestFields },
  { additionalProperties: false },
);

/** A row's Recording within the bridge's bound: whole, `paged`, or the page asked for (see pagedRecording.ts). */
export const BatchRecordingResponseSchema = Type.Object(PagedRecordingFields, { additionalProperties: false });
export type BatchRecordingResponse = Static<typeof BatchRecordingResponseSchema>;

export const batchMethods = defineMethods({
  'batch.start': {
    summary: 'Replay every session of a state dir through the same lanes on a worker pool; answers at once with an id.',
    request: BatchStartRequestSchema,
    response: BatchStartResponseSchema,
  },
  'batch.get': {
    summary:
      "A batch's rows as its sessions finish (turns, compactions, tokens saved vs legacy, findings) and the total.",
    request: BatchIdRequestSchema,
    response: BatchGetResponseSchema,
  },
  'batch.recording': {
    summary:
      "The Recording of one finished session of a batch (the row's index), to open in the Replay view: whole, or " +
      '`paged` and read with from.',
    request: BatchRecordingRequestSchema,
    response: BatchRecordingResponseSchema,
  },
  'batch.cancel': {
    summary: 'Cancel a running batch: running sessions stop before their next turn, queued ones do not start.',
    request: BatchIdRequestSchema,
    response: Type.Object({ cancelled: Type.Boolean() }, { additionalProperties: false }),
  },
});

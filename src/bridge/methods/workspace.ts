import { Type, type Static } from '@sinclair/typebox';
import { defineMethods, NoParams } from '../methodSpec';
import { PagedRecordingFields, PageRequestFields } from './pagedRecording';

/**
 * Where the app looks for the user's OpenClaw state: the folder chosen in the app (remembered in the app's config
 * dir), else `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. Sessions, Plugins, Doctor and Config all read this one.
 */
export const WorkspaceInfoSchema = Type.Object(
  {
    /** the state dir in use (absolute) */
    stateDir: Type.String({ minLength: 1 }),
    /** where it came from */
    source: Type.Union([Type.Literal('chosen'), Type.Literal('OPENCLAW_STATE_DIR'), Type.Literal('home')]),
    /** whether that folder exists */
    exists: Type.Boolean(),
    /** what the app falls back to when nothing is chosen ($OPENCLAW_STATE_DIR or ~/.openclaw) */
    defaultStateDir: Type.String({ minLength: 1 }),
    /** the bundled demo sessions (a state dir of their own), or null when the build has none */
    demoDir: Type.Union([Type.String(), Type.Null()]),
    /** the file the choice is remembered in */
    settingsFile: Type.String(),
  },
  { additionalProperties: false },
);
export type WorkspaceInfo = Static<typeof WorkspaceInfoSchema>;

export const WorkspaceSetRequestSchema = Type.Object(
  {
    /** a folder to use from now on; null forgets the choice (back to $OPENCLAW_STATE_DIR or ~/.openclaw) */
    stateDir: Type.Union([Type.String({ minLength: 1, maxLength: 4096 }), Type.Null()]),
  },
  { additionalProperties: false },
);

/** One recording kept in the app's recent list (the recording itself is read with recordings.open). */
export const RecentRecordingSchema = Type.Object(
  {
    id: Type.String({ minLength: 1 }),
    title: Type.String(),
    /** how it got here: a finished replay, or a file the user opened */
    origin: Type.Union([Type.Literal('replay'), Type.Literal('file')]),
    fileName: Type.Optional(Type.String()),
    /** the replay it was saved from (links naming that replay still find it after a restart) */
    replayId: Type.Optional(Type.String()),
    sessionId: Type.String(),
    sessionKey: Type.Optional(Type.String()),
    lanes: Type.Array(Type.String()),
    turns: Type.Integer({ minimum: 0 }),
    bytes: Type.Integer({ minimum: 0 }),
    /** epoch ms it was saved, and last opened */
    savedAt: Type.Number(),
    openedAt: Type.Number(),
  },
  { additionalProperties: false },
);
export type RecentRecording = Static<typeof RecentRecordingSchema>;

export const RecordingsListResponseSchema = Type.Object(
  {
    /** most recently opened first */
    recordings: Type.Array(RecentRecordingSchema),
    /** the folder they are kept in, and its bounds */
    dir: Type.String(),
    maxCount: Type.Integer({ minimum: 1 }),
    maxBytes: Type.Integer({ minimum: 1 }),
  },
  { additionalProperties: false },
);

/** An opened recording within the bridge's bound: whole, `paged`, or the page asked for (see pagedRecording.ts). */
export const OpenedRecordingSchema = Type.Object(
  { entry: RecentRecordingSchema, ...PagedRecordingFields },
  { additionalProperties: false },
);
export type OpenedRecording = Static<typeof OpenedRecordingSchema>;

export const workspaceMethods = defineMethods({
  'workspace.get': {
    summary: 'The OpenClaw state dir the app reads (chosen, $OPENCLAW_STATE_DIR or ~/.openclaw) and the demo folder.',
    request: NoParams,
    response: WorkspaceInfoSchema,
  },
  'workspace.setStateDir': {
    summary: 'Choose the state dir (remembered in the app config dir), or forget the choice with null.',
    request: WorkspaceSetRequestSchema,
    response: WorkspaceInfoSchema,
  },
  'recordings.list': {
    summary: 'The recent recordings kept in the app config dir (bounded in count and bytes), newest first.',
    request: NoParams,
    response: RecordingsListResponseSchema,
  },
  'recordings.save': {
    summary: "Keep a finished replay's recording in the recent list (it survives reloads and restarts).",
    request: Type.Object(
      { replayId: Type.String({ minLength: 1 }), title: Type.String({ maxLength: 500 }) },
      { additionalProperties: false },
    ),
    response: RecentRecordingSchema,
  },
  'recordings.open': {
    summary:
      'A recording of the recent list (it becomes the most recently opened): whole, or `paged` and read with from.',
    request: Type.Object(
      { id: Type.String({ minLength: 1, maxLength: 200 }), ...PageRequestFields },
      { additionalProperties: false },
    ),
    response: OpenedRecordingSchema,
  },
  'recordings.import': {
    summary:
      'A recording JSON file the user opened (what the app and `contextscope replay --json` export): validated ' +
      'against the Recording schema, then kept in the recent list (a `paged` one is read with recordings.open).',
    request: Type.Object(
      { fileName: Type.String({ maxLength: 500 }), content: Type.String() },
      { additionalProperties: false },
    ),
    response: OpenedRecordingSchema,
  },
  'recordings.remove': {
    summary: 'Forget a recording of the recent list (its file is deleted).',
    request: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    response: Type.Object({ removed: Type.Boolean() }, { additionalProperties: false }),
  },
});

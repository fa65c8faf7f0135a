import { Type, type Static } from '@sinclair/typebox';
import { defineMethods } from '../methodSpec';
import { PluginKindSchema, PluginOriginSchema, PluginProblemSchema, ConsentStateSchema } from './plugins';
import { LaneSchema } from './replayRequest';

/**
 * `config.*`: openclaw.json read with its validation, a change previewed (new text, path-level diff, validation),
 * saved against the hash it was read with (refused when the file changed on disk), backups restored, and the
 * lanes of a try-before-save replay. The shapes mirror src/config (ConfigSnapshot, ConfigPreview, SaveOutcome,
 * TryLanes); src/app/configEditor.ts answers them (main/configHandlers.ts wires it). Changes are path operations, so the same list can be
 * re-applied to a file that changed on disk.
 */

const ConfigPathSchema = Type.Array(Type.String(), {
  description: 'keys from the root, e.g. ["plugins","slots","contextEngine"]',
});

/** Which openclaw.json: `configPath`, else $OPENCLAW_CONFIG_PATH, else <stateDir>/openclaw.json. */
const ConfigLocation = {
  configPath: Type.Optional(Type.String({ minLength: 1 })),
  /** OpenClaw state dir (default $OPENCLAW_STATE_DIR, else ~/.openclaw): its openclaw.json and extensions */
  stateDir: Type.Optional(Type.String({ minLength: 1 })),
  workspaceDir: Type.Optional(Type.String({ minLength: 1 })),
  /** engine ids per plugin id, when a doctor run executed the plugins (else a plugin's id stands for its engine) */
  engines: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
};

export const ConfigChangeSchema = Type.Union([
  Type.Object(
    { op: Type.Literal('set'), path: ConfigPathSchema, value: Type.Unknown() },
    { additionalProperties: false },
  ),
  Type.Object({ op: Type.Literal('unset'), path: ConfigPathSchema }, { additionalProperties: false }),
  Type.Object(
    { op: Type.Literal('selectSlot'), slot: Type.String({ minLength: 1 }), value: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { op: Type.Literal('setEnabled'), pluginId: Type.String({ minLength: 1 }), enabled: Type.Boolean() },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      op: Type.Literal('setPluginConfig'),
      pluginId: Type.String({ minLength: 1 }),
      config: Type.Record(Type.String(), Type.Unknown()),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { op: Type.Literal('uninstall'), pluginId: Type.String({ minLength: 1 }) },
    { additionalProperties: false },
  ),
  Type.Object(
    { op: Type.Literal('setCompaction'), settings: Type.Record(Type.String(), Type.Unknown()) },
    { additionalProperties: false },
  ),
  Type.Object(
    { op: Type.Literal('setContextWindow'), tokens: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]) },
    { additionalProperties: false },
  ),
]);
export type ConfigChangeInfo = Static<typeof ConfigChangeSchema>;

export const ConfigIssueSchema = Type.Object(
  {
    severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
    code: Type.String(),
    path: ConfigPathSchema,
    message: Type.String(),
    fix: Type.Optional(Type.String()),
    file: Type.Optional(Type.String()),
    line: Type.Optional(Type.Integer({ minimum: 1 })),
    column: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { additionalProperties: false },
);
export type ConfigIssueInfo = Static<typeof ConfigIssueSchema>;

export const ConfigPathChangeSchema = Type.Object(
  {
    path: ConfigPathSchema,
    kind: Type.Union([Type.Literal('added'), Type.Literal('removed'), Type.Literal('changed')]),
    from: Type.Optional(Type.Unknown()),
    to: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type ConfigPathChangeInfo = Static<typeof ConfigPathChangeSchema>;

const SyntaxErrorSchema = Type.Object(
  { message: Type.String(), line: Type.Integer(), column: Type.Integer() },
  { additionalProperties: false },
);

export const ConfigIncludeSchema = Type.Object(
  {
    /** the config path of the object that holds the $include, e.g. "channels" */
    at: Type.String(),
    include: Type.String(),
    file: Type.String(),
    /** the file it is named in */
    from: Type.String(),
    text: Type.Union([Type.String(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

export const ConfigPluginSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    kind: Type.Array(PluginKindSchema),
    origin: PluginOriginSchema,
    path: Type.String(),
    enabled: Type.Boolean(),
    disabledReason: Type.Optional(Type.String()),
    /** no manifest/entry errors: it can be loaded once its code may run */
    loadable: Type.Boolean(),
    consent: ConsentStateSchema,
    problems: Type.Array(PluginProblemSchema),
    /** the manifest's configSchema (JSON Schema), null when it has none */
    configSchema: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    uiHints: Type.Record(Type.String(), Type.Record(Type.String(), Type.Unknown())),
    /** plugins.entries.<id>.config as the config holds it ($include merged), null when unset */
    config: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    /** the context engines it registers (or its id, before a doctor run has executed it) */
    engines: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type ConfigPluginInfo = Static<typeof ConfigPluginSchema>;

export const ConfigBackupSchema = Type.Object(
  { file: Type.String(), savedAt: Type.String(), bytes: Type.Integer({ minimum: 0 }), hash: Type.String() },
  { additionalProperties: false },
);
export type ConfigBackupInfo = Static<typeof ConfigBackupSchema>;

export const ConfigReadResponseSchema = Type.Object(
  {
    path: Type.String(),
    exists: Type.Boolean(),
    text: Type.String(),
    hash: Type.String(),
    stateDir: Type.String(),
    syntaxError: Type.Union([SyntaxErrorSchema, Type.Null()]),
    /** why the form cannot write this file (raw mode), null when it can */
    readOnly: Type.Union([Type.String(), Type.Null()]),
    /** the effective config ($include merged), null in raw mode */
    effective: Type.Unknown(),
    includes: Type.Array(ConfigIncludeSchema),
    issues: Type.Array(ConfigIssueSchema),
    plugins: Type.Array(ConfigPluginSchema),
    backups: Type.Array(ConfigBackupSchema),
  },
  { additionalProperties: false },
);
export type ConfigReadResponse = Static<typeof ConfigReadResponseSchema>;

const ConfigInput = {
  ...ConfigLocation,
  /** the hash config.read gave (what the changes apply to) */
  baseHash: Type.String({ minLength: 1 }),
  /** form changes, in order */
  changes: Type.Optional(Type.Array(ConfigChangeSchema, { maxItems: 500 })),
  /** or the raw editor's whole text */
  text: Type.Optional(Type.String({ maxLength: 5_000_000 })),
};

export const ConfigPreviewRequestSchema = Type.Object(ConfigInput, { additionalProperties: false });

export const ConfigPreviewSchema = Type.Object(
  {
    path: Type.String(),
    baseHash: Type.String(),
    /** the file's hash on disk now; differs from baseHash when someone changed it since it was read */
    currentHash: Type.String(),
    stale: Type.Boolean(),
    text: Type.String(),
    changed: Type.Boolean(),
    changes: Type.Array(ConfigPathChangeSchema),
    /** unified diff of the file, '' when unchanged */
    diff: Type.String(),
    issues: Type.Array(ConfigIssueSchema),
    ok: Type.Boolean(),
    notes: Type.Array(Type.String()),
    refused: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ConfigPreviewInfo = Static<typeof ConfigPreviewSchema>;

export const ConfigSaveResponseSchema = Type.Union([
  Type.Object(
    {
      ok: Type.Literal(true),
      path: Type.String(),
      hash: Type.String(),
      written: Type.Boolean(),
      backupFile: Type.Union([Type.String(), Type.Null()]),
      preview: ConfigPreviewSchema,
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      ok: Type.Literal(false),
      reason: Type.Literal('changed-on-disk'),
      message: Type.String(),
      path: Type.String(),
      current: Type.Object(
        { hash: Type.String(), text: Type.String(), exists: Type.Boolean() },
        { additionalProperties: false },
      ),
      /** what changed on disk: the diff from the version that was read to the one there now ('' when unknown) */
      externalDiff: Type.String(),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      ok: Type.Literal(false),
      reason: Type.Union([Type.Literal('invalid'), Type.Literal('refused')]),
      message: Type.String(),
      path: Type.String(),
      preview: ConfigPreviewSchema,
    },
    { additionalProperties: false },
  ),
]);
export type ConfigSaveResponse = Static<typeof ConfigSaveResponseSchema>;

export const ConfigRestoreRequestSchema = Type.Object(
  { ...ConfigLocation, baseHash: Type.String({ minLength: 1 }), backupFile: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const TryLaneSchema = Type.Object(
  {
    /** the lane as data: what replay.start takes */
    lane: LaneSchema,
    /** the same lane as a spec a person can type (--lane) */
    spec: Type.String(),
    label: Type.String(),
    engineId: Type.String(),
    pluginId: Type.Optional(Type.String()),
    configFile: Type.Optional(Type.String()),
    window: Type.Optional(Type.Integer()),
    reserve: Type.Optional(Type.Integer()),
    keepRecentTokens: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export const ConfigTryLanesResponseSchema = Type.Object(
  {
    saved: TryLaneSchema,
    edited: TryLaneSchema,
    same: Type.Boolean(),
    notes: Type.Array(Type.String()),
    /** refused changes: no lanes (saved and edited are then the same lane) */
    refused: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
export type ConfigTryLanesResponse = Static<typeof ConfigTryLanesResponseSchema>;

export const configMethods = defineMethods({
  'config.read': {
    summary:
      'openclaw.json with its validation, $include files, the plugins it can use (schemas, uiHints) and its backups.',
    request: Type.Object(ConfigLocation, { additionalProperties: false }),
    response: ConfigReadResponseSchema,
  },
  'config.preview': {
    summary:
      'What changes (or the raw text) would do: new text, path-level from → to, text diff, validation. Writes nothing.',
    request: ConfigPreviewRequestSchema,
    response: ConfigPreviewSchema,
  },
  'config.save': {
    summary:
      'Save changes against the hash they were read with: refused when the file changed on disk or does not validate; backed up first.',
    request: ConfigPreviewRequestSchema,
    response: ConfigSaveResponseSchema,
  },
  'config.restore': {
    summary:
      'Write a backup back as the file (a guarded save: hash-checked, validated, the current version backed up).',
    request: ConfigRestoreRequestSchema,
    response: ConfigSaveResponseSchema,
  },
  'config.tryLanes': {
    summary:
      'Lane specs for replaying the saved and the edited config side by side (plugin configs in temporary files).',
    request: ConfigPreviewRequestSchema,
    response: ConfigTryLanesResponseSchema,
  },
});

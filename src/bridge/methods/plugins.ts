import { Type, type Static } from '@sinclair/typebox';
import { QuarantineFields } from '../../contract/recording/events';
import { defineMethods } from '../methodSpec';

/**
 * `plugins.*` and `doctor.run`: the context-engine plugins ContextScope can find, the user's consent to run their
 * code, and the doctor report. The shapes mirror `src/plugins` (DiscoveredPlugin, ConsentStore, DoctorReport —
 * documented in src/plugins/README.md); the handler (main/pluginHandlers.ts) maps one onto the other.
 */

export const PluginOriginSchema = Type.Union([
  Type.Literal('config'),
  Type.Literal('linked'),
  Type.Literal('bundled'),
  Type.Literal('workspace'),
  Type.Literal('global'),
]);
export type PluginOriginName = Static<typeof PluginOriginSchema>;

export const PluginKindSchema = Type.Union([Type.Literal('context-engine'), Type.Literal('memory')]);

/** Something wrong with a plugin or its config: what, where (file + JSON pointer) and what to do. */
export const PluginProblemSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    file: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    fix: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type PluginProblemInfo = Static<typeof PluginProblemSchema>;

/**
 * granted = approved for the package's current content; missing = never approved (or revoked);
 * stale-hash = approved, but the package changed since (its content hash differs), so it must be approved again.
 */
export const ConsentStateSchema = Type.Union([
  Type.Literal('granted'),
  Type.Literal('missing'),
  Type.Literal('stale-hash'),
]);
export type ConsentState = Static<typeof ConsentStateSchema>;

/**
 * What a consent grants a plugin's engine host beyond Node's permission model's default (src/plugins/host/
 * hostPermissions.ts): starting child processes, starting worker threads. Either lifts the confinement.
 */
export const HostGrantsSchema = Type.Object(
  { childProcess: Type.Optional(Type.Boolean()), worker: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type HostGrantsInfo = Static<typeof HostGrantsSchema>;

export const PluginConsentInfoSchema = Type.Object(
  {
    state: ConsentStateSchema,
    /** a sentence for a person: when it was approved, or why it may not run */
    message: Type.String(),
    /** the package's current content hash */
    hash: Type.String(),
    grantedAt: Type.Optional(Type.String()),
    /** what the remembered consent grants its engine host (absent: neither child processes nor worker threads) */
    grants: Type.Optional(HostGrantsSchema),
  },
  { additionalProperties: false },
);
export type PluginConsentInfo = Static<typeof PluginConsentInfoSchema>;

/** One top-level property of a plugin's `configSchema`, with its `uiHints` label. */
export const ConfigFieldSchema = Type.Object(
  {
    key: Type.String(),
    /** JSON Schema type ("number", "integer|null", ...), "" when the schema does not say */
    type: Type.String(),
    label: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    default: Type.Optional(Type.Unknown()),
    advanced: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ConfigFieldInfo = Static<typeof ConfigFieldSchema>;

export const ConfigSchemaSummarySchema = Type.Object(
  {
    fields: Type.Array(ConfigFieldSchema),
    /** false when the schema rejects keys it does not list */
    additionalProperties: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const ListedPluginSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    kind: Type.Array(PluginKindSchema),
    /** the plugin folder (what consent, lanes and plugins.approve name) */
    path: Type.String(),
    realPath: Type.String(),
    origin: PluginOriginSchema,
    enabled: Type.Boolean(),
    disabledReason: Type.Optional(Type.String()),
    /** no manifest/entry/config errors: the plugin can be loaded once consent is given */
    loadable: Type.Boolean(),
    /** entry files as declared (package.json#openclaw.extensions, or the fallback index file) */
    entries: Type.Array(Type.String()),
    /** manifest, package.json and entry problems */
    errors: Type.Array(PluginProblemSchema),
    /** plugins.entries.<id>.config problems, as JSON paths */
    configErrors: Type.Array(PluginProblemSchema),
    warnings: Type.Array(PluginProblemSchema),
    /** null when the plugin has no (readable) configSchema */
    configSchema: Type.Union([ConfigSchemaSummarySchema, Type.Null()]),
    consent: PluginConsentInfoSchema,
    /** other copies of the same id that lost on precedence */
    shadowed: Type.Array(
      Type.Object({ path: Type.String(), origin: PluginOriginSchema }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type ListedPlugin = Static<typeof ListedPluginSchema>;

export const PluginsListRequestSchema = Type.Object(
  {
    /** OpenClaw state dir: adds <stateDir>/extensions and reads <stateDir>/openclaw.json (default: $OPENCLAW_STATE_DIR or ~/.openclaw) */
    stateDir: Type.Optional(Type.String({ minLength: 1 })),
    /** agent workspace: adds <workspaceDir>/.openclaw/extensions */
    workspaceDir: Type.Optional(Type.String({ minLength: 1 })),
  },
  { additionalProperties: false },
);

export const PluginsListResponseSchema = Type.Object(
  {
    stateDir: Type.String(),
    workspaceDir: Type.Union([Type.String(), Type.Null()]),
    /** the openclaw.json whose plugins.entries/slots applied, null when there is none */
    configPath: Type.Union([Type.String(), Type.Null()]),
    /** where consent is remembered */
    consentFile: Type.String(),
    plugins: Type.Array(ListedPluginSchema),
  },
  { additionalProperties: false },
);
export type PluginsListResponse = Static<typeof PluginsListResponseSchema>;

export const PluginPathRequestSchema = Type.Object(
  { /** a plugin folder (ListedPlugin.path) */ path: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

/**
 * What consent is asked for: `approve` (remembered, `plugins.approve`) or `run` (this run only: `replay.start` /
 * `doctor.run` take the nonce as `consentNonce`).
 */
export const ConsentPurposeSchema = Type.Union([Type.Literal('approve'), Type.Literal('run')]);
export type ConsentPurpose = Static<typeof ConsentPurposeSchema>;

export const PluginsRequestConsentRequestSchema = Type.Object(
  {
    /** plugin folders (ListedPlugin.path), or `plugin:<folder>` lane specs */
    paths: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { minItems: 1, maxItems: 64 }),
    purpose: ConsentPurposeSchema,
    /** child processes / worker threads for these plugins' engine hosts, named in the confirmation (default: none) */
    grants: Type.Optional(HostGrantsSchema),
  },
  { additionalProperties: false },
);

/** One plugin a consent covers: the content (hash, files, bytes) the person confirmed. */
export const ConsentSubjectSchema = Type.Object(
  {
    pluginId: Type.String(),
    path: Type.String(),
    realPath: Type.String(),
    hash: Type.String(),
    files: Type.Integer({ minimum: 0 }),
    bytes: Type.Integer({ minimum: 0 }),
    /** files past the package hash's caps are not covered (and cannot be loaded) */
    truncated: Type.Optional(Type.String()),
    /** child processes / worker threads confirmed with it */
    grants: Type.Optional(HostGrantsSchema),
  },
  { additionalProperties: false },
);

export const PluginsRequestConsentResponseSchema = Type.Object(
  {
    /** one-time: consumed by the first plugins.approve / replay.start / doctor.run that names it */
    nonce: Type.String(),
    purpose: ConsentPurposeSchema,
    expiresAt: Type.String(),
    plugins: Type.Array(ConsentSubjectSchema),
  },
  { additionalProperties: false },
);

export const PluginsApproveRequestSchema = Type.Object(
  { /** from plugins.requestConsent with purpose "approve" */ nonce: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

export const ApprovedPluginSchema = Type.Object(
  { pluginId: Type.String(), path: Type.String(), realPath: Type.String(), consent: PluginConsentInfoSchema },
  { additionalProperties: false },
);

export const PluginsApproveResponseSchema = Type.Object(
  { plugins: Type.Array(ApprovedPluginSchema) },
  { additionalProperties: false },
);

export const PluginsRevokeResponseSchema = Type.Object(
  {
    path: Type.String(),
    realPath: Type.String(),
    /** false when there was no consent to forget */
    revoked: Type.Boolean(),
  },
  { additionalProperties: false },
);

// ---- doctor.run: DoctorReport (src/plugins/doctor/reportTypes.ts; `contextscope doctor --json` prints the same) ----

export const DoctorSeveritySchema = Type.Union([Type.Literal('error'), Type.Literal('warn'), Type.Literal('info')]);
export type DoctorSeverity = Static<typeof DoctorSeveritySchema>;

export const DoctorFindingSchema = Type.Object(
  {
    severity: DoctorSeveritySchema,
    code: Type.String(),
    where: Type.Object(
      {
        pluginId: Type.Optional(Type.String()),
        engineId: Type.Optional(Type.String()),
        file: Type.Optional(Type.String()),
        operation: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    message: Type.String(),
    fix: Type.String(),
  },
  { additionalProperties: false },
);
export type DoctorFindingInfo = Static<typeof DoctorFindingSchema>;

export const DoctorPluginReportSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.Optional(Type.String()),
    path: Type.String(),
    kind: Type.Array(PluginKindSchema),
    origin: PluginOriginSchema,
    enabled: Type.Boolean(),
    status: Type.Union([
      Type.Literal('executed'),
      Type.Literal('not-executed'),
      Type.Literal('invalid'),
      Type.Literal('load-failed'),
    ]),
    statusMessage: Type.String(),
    engines: Type.Array(Type.String()),
    discoveryEngines: Type.Union([Type.Array(Type.String()), Type.Null()]),
    tools: Type.Array(Type.String()),
    commands: Type.Array(Type.String()),
    hooks: Type.Array(Type.String()),
    errors: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

export const DoctorQuarantineSchema = Type.Object(QuarantineFields, { additionalProperties: false });

export const DoctorReportSchema = Type.Object(
  {
    version: Type.Literal(1),
    ok: Type.Boolean(),
    executed: Type.Boolean(),
    summary: Type.Object(
      {
        plugins: Type.Integer({ minimum: 0 }),
        errors: Type.Integer({ minimum: 0 }),
        warnings: Type.Integer({ minimum: 0 }),
        infos: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    config: Type.Object(
      { path: Type.Union([Type.String(), Type.Null()]), contextEngineSlot: Type.Union([Type.String(), Type.Null()]) },
      { additionalProperties: false },
    ),
    plugins: Type.Array(DoctorPluginReportSchema),
    findings: Type.Array(DoctorFindingSchema),
    quarantines: Type.Array(DoctorQuarantineSchema),
  },
  { additionalProperties: false },
);
export type DoctorReportInfo = Static<typeof DoctorReportSchema>;

export const DoctorRunRequestSchema = Type.Object(
  {
    stateDir: Type.Optional(Type.String({ minLength: 1 })),
    workspaceDir: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * plugins.requestConsent's nonce (purpose "run"): the plugins it names run for this check; without it only
     * approved plugins run
     */
    consentNonce: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** each engine call's deadline in the smoke drive, like `contextscope doctor --timeout` (default 10,000 ms) */
    timeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
  },
  { additionalProperties: false },
);

/**
 * `doctor.progress`: the running doctor.run, plugin by plugin (src/plugins/doctor/doctorProgress.ts): `loading` a
 * plugin, `loaded` (its engines wait for every load), `driving` one of its engines, the plugin `checked` with its
 * outcome (as the report will list it).
 */
export const DoctorProgressEventSchema = Type.Object(
  {
    phase: Type.Union([
      Type.Literal('loading'),
      Type.Literal('loaded'),
      Type.Literal('driving'),
      Type.Literal('checked'),
    ]),
    pluginId: Type.String(),
    /** the plugin's place (1-based) of `plugins` */
    plugin: Type.Integer({ minimum: 1 }),
    plugins: Type.Integer({ minimum: 1 }),
    /** plugins checked so far */
    checked: Type.Integer({ minimum: 0 }),
    engine: Type.Optional(
      Type.Object(
        { id: Type.String(), index: Type.Integer({ minimum: 1 }), count: Type.Integer({ minimum: 1 }) },
        { additionalProperties: false },
      ),
    ),
    outcome: Type.Optional(
      Type.Object(
        {
          status: DoctorPluginReportSchema.properties.status,
          statusMessage: Type.String(),
          engines: Type.Integer({ minimum: 0 }),
          errors: Type.Integer({ minimum: 0 }),
          warnings: Type.Integer({ minimum: 0 }),
          infos: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type DoctorProgressEvent = Static<typeof DoctorProgressEventSchema>;

export const pluginsTopics = {
  'doctor.progress': DoctorProgressEventSchema,
};

export const pluginsMethods = defineMethods({
  'plugins.list': {
    summary:
      'Context-engine plugins found in the bundled, workspace, state-dir and configured roots, with problems, config schema and consent.',
    request: PluginsListRequestSchema,
    response: PluginsListResponseSchema,
  },
  'plugins.requestConsent': {
    summary:
      "Ask the main process for consent to run the plugins in these folders (Electron: a native dialog; browser mode: the server logs what will run): a one-time nonce bound to each plugin's content hash.",
    request: PluginsRequestConsentRequestSchema,
    response: PluginsRequestConsentResponseSchema,
  },
  'plugins.approve': {
    summary:
      'Remember the consent a plugins.requestConsent nonce (purpose approve) stands for, bound to the content hash the person confirmed.',
    request: PluginsApproveRequestSchema,
    response: PluginsApproveResponseSchema,
  },
  'plugins.revoke': {
    summary: 'Forget the consent given for the plugin in this folder.',
    request: PluginPathRequestSchema,
    response: PluginsRevokeResponseSchema,
  },
  'doctor.run': {
    summary:
      'Check every plugin like `contextscope doctor --json` (with consent or a consentNonce: a smoke drive of each engine); emits doctor.progress events per plugin as it goes.',
    request: DoctorRunRequestSchema,
    response: DoctorReportSchema,
  },
});

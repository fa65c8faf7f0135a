/**
 * The `openclaw/plugin-sdk` specifiers ContextScope provides inside an engine host, the names each shim exports,
 * and, for comparison, the runtime names OpenClaw 2026.9.6 exports from the same subpaths (read from
 * `openclaw@2026.9.6`'s `dist/plugin-sdk/<subpath>.js` export lists; OpenClaw 2026.9.6 has no root
 * `openclaw/plugin-sdk` module any more). The doctor uses both: a name OpenClaw exports and the shim lacks is a
 * missing export; a name neither exports is a type (in TypeScript) or a plugin bug.
 */

/** Export names each shim must provide (kept in sync with the shim files; a unit test checks it). */
export const PLUGIN_SDK_EXPORTS = {
  'openclaw/plugin-sdk': [
    'buildMemorySystemPromptAddition',
    'prepareMemorySystemPromptAddition',
    'delegateCompactionToRuntime',
    'definePluginEntry',
    'redactSensitiveText',
  ],
  'openclaw/plugin-sdk/core': [
    'buildMemorySystemPromptAddition',
    'prepareMemorySystemPromptAddition',
    'delegateCompactionToRuntime',
    'definePluginEntry',
    'redactSensitiveText',
  ],
  'openclaw/plugin-sdk/plugin-entry': ['definePluginEntry'],
  'openclaw/plugin-sdk/logging-core': ['redactSensitiveText'],
  'openclaw/plugin-sdk/session-transcript-runtime': [
    'readVisibleSessionTranscriptMessageEntries',
    'readSessionTranscriptVisibleMessageDelta',
    'readSessionTranscriptRawDelta',
    'readSessionTranscriptEvents',
    'resolveSessionTranscriptIdentity',
    'resolveSessionTranscriptTarget',
    'formatSessionTranscriptMemoryHitKey',
    'parseSessionTranscriptMemoryHitKey',
  ],
  'openclaw/plugin-sdk/session-store-runtime': ['loadTranscriptEventsSync', 'readTranscriptStatsSync'],
  'openclaw/plugin-sdk/sqlite-runtime': ['resolveOpenClawAgentSqlitePath', 'tableExists'],
} as const;

export type PluginSdkSpecifier = keyof typeof PLUGIN_SDK_EXPORTS;

/** Shim file base names (in ./shims, as .mjs and .cjs) by specifier. */
export const PLUGIN_SDK_SHIM_FILES: Record<PluginSdkSpecifier, string> = {
  'openclaw/plugin-sdk': 'index',
  'openclaw/plugin-sdk/core': 'core',
  'openclaw/plugin-sdk/plugin-entry': 'plugin-entry',
  'openclaw/plugin-sdk/logging-core': 'logging-core',
  'openclaw/plugin-sdk/session-transcript-runtime': 'session-transcript-runtime',
  'openclaw/plugin-sdk/session-store-runtime': 'session-store-runtime',
  'openclaw/plugin-sdk/sqlite-runtime': 'sqlite-runtime',
};

/** Space-separated names as an array. */
function names(list: string): readonly string[] {
  return list.trim().split(/\s+/);
}

/** Runtime exports of OpenClaw 2026.9.6's plugin-sdk subpaths that ContextScope shims (names only). */
export const OPENCLAW_2026_9_6_SDK_EXPORTS: Partial<Record<PluginSdkSpecifier, readonly string[]>> = {
  'openclaw/plugin-sdk/core': names(`
    DEFAULT_ACCOUNT_ID DEFAULT_SECRET_FILE_MAX_BYTES KeyedAsyncQueue applyAccountNameToChannelSection
    buildAgentSessionKey buildChannelConfigSchema buildChannelOutboundSessionRoute buildJsonChannelConfigSchema
    buildJsonPluginConfigSchema buildMemorySystemPromptAddition buildPluginConfigSchema
    buildThreadAwareOutboundSessionRoute channelTargetSchema channelTargetsSchema clearAccountEntryFields
    createActionGate createChannelPluginBase createChatChannelPlugin createDedupeCache createSubsystemLogger
    defineChannelPluginEntry definePluginEntry defineSetupPluginEntry delegateCompactionToRuntime
    deleteAccountFromConfigSection emptyChannelConfigSchema emptyPluginConfigSchema enqueueKeyedTask
    ensureConfiguredAcpBindingReady formatPairingApproveHint formatZonedTimestamp generateSecureToken
    generateSecureUuid getChatChannelMeta isSecretRef isTrustedProxyAddress jsonResult loadSecretFileSync
    migrateBaseNameToDefaultAccount normalizeAccountId normalizeAtHashSlug normalizeHyphenSlug
    optionalStringEnum parseOptionalDelimitedEntries parseStrictPositiveInteger
    prepareMemorySystemPromptAddition readNumberParam readReactionParams readSecretFileSync readStringArrayParam
    readStringParam recoverCurrentThreadSessionId resolveClientIp resolveConfiguredAcpBindingRecord
    resolveGatewayBindUrl resolveGatewayPort resolveGlobalDedupeCache resolveTailnetHostWithRunner
    resolveTailscalePublishedHost resolveTailscaleServeGatewayUrlsWithRunner resolveThreadSessionKeys
    setAccountEnabledInConfigSection stringEnum stripChannelTargetPrefix stripTargetKindPrefix
    tryReadSecretFileSync
  `),
  'openclaw/plugin-sdk/plugin-entry': names(`
    WorkerProviderError buildJsonPluginConfigSchema buildPluginConfigSchema definePluginEntry
    emptyPluginConfigSchema
  `),
  'openclaw/plugin-sdk/logging-core': names(`
    createSubsystemLogger getChildLogger logDebug logError logInfo logWebhookError logWebhookProcessed
    logWebhookReceived redactIdentifier redactSensitiveFieldValue redactSensitiveText redactToolPayloadText
    startDiagnosticHeartbeat stopDiagnosticHeartbeat
  `),
  'openclaw/plugin-sdk/session-transcript-runtime': names(`
    appendAssistantMirrorMessageByIdentity appendSessionTranscriptMessageByIdentity
    appendSessionTranscriptMessageByIdentityStrict appendSessionTranscriptMessagesByIdentity
    appendSessionYieldContext createSessionCatalogGitHubLinker createSessionCatalogSourceActorProjector
    formatSessionTranscriptMemoryHitKey hasPromptImageInput parseSessionTranscriptMemoryHitKey
    publishSessionTranscriptUpdateByIdentity readLatestAssistantTextByIdentity readSessionTranscriptCatalogPage
    readSessionTranscriptCatalogTitle readSessionTranscriptEvents readSessionTranscriptRawDelta
    readSessionTranscriptVisibleMessageDelta readVisibleSessionTranscriptMessageEntries
    resolveSessionTranscriptIdentity resolveSessionTranscriptMemoryHitKeyToSessionKeys
    resolveSessionTranscriptTarget withSessionTranscriptWriteLock
  `),
  'openclaw/plugin-sdk/session-store-runtime': names(`
    SessionStoreAgentIdRequiredError canonicalizeMainSessionAlias cleanupSessionLifecycleArtifacts
    clearSessionStoreCacheForTest deleteSessionEntry deliveryContextFromSession evaluateSessionFreshness
    formatSqliteSessionFileMarker getConversationSession getSessionEntry isValidAgentHarnessSessionStoreEntry
    listSessionEntries loadSessionStore loadTranscriptEventsSync normalizeSessionDeliveryState
    parseSqliteSessionFileMarker patchSessionEntry projectSessionDeliveryFields readAmbientTranscriptWatermark
    readRecentUserAssistantTextForSession readSessionUpdatedAt readTranscriptStatsSync
    recordSessionMetaFromInbound resolveAmbientTranscriptWatermarkKey resolveChannelResetConfig
    resolveGroupSessionKey resolveSendPolicy resolveSessionFilePath resolveSessionKey resolveSessionResetPolicy
    resolveSessionResetType resolveSessionStoreBackupPaths resolveSessionStoreEntry resolveStorePath
    resolveThreadFlag resolveTranscriptSessionKeyBySessionId sessionDeliveryChannel sessionDeliveryOrigin
    sessionDeliveryRoute sqliteSessionFileMarkerMatchesSession updateAmbientTranscriptWatermark updateLastRoute
    updateSessionStore updateSessionStoreEntry upsertSessionEntry
  `),
  'openclaw/plugin-sdk/sqlite-runtime': names(`
    SqliteWorkerError assertOpenClawAgentDatabaseForMaintenance assertTransactionUsable
    borrowOpenClawAgentDatabase compileSqliteQueryBindings enableNodeSqliteKyselyStatementCache
    ensureOpenClawAgentDatabaseSchema ensureOpenClawAgentStandingIntentsSchema executeSqliteQuerySync
    executeSqliteQueryTakeFirstSync getNodeSqliteKysely iterateSqliteQuerySync openNodeSqliteDatabase
    openOpenClawAgentDatabase openOpenClawAgentSqliteWorkerStore openSqliteWorkerStore prepareSqliteQuerySync
    prepareSqliteReadOnlyLocation prepareSqliteReadOnlyLocationSync requestSqliteWorkerOperationAdmission
    resolveExistingSqliteFileUri resolveOpenClawAgentSqlitePath runQueuedStoreWrite
    runSqliteImmediateTransaction runSqliteImmediateTransactionSync runSqliteWorkerStoreOperation
    runSqliteWorkerStoreWrite sqliteStringSet tableExists withOpenClawAgentDatabaseAsync
    withOpenClawAgentDatabaseReadOnly withOpenClawAgentDatabaseWrite
  `),
};

export function isPluginSdkSpecifier(specifier: string): specifier is PluginSdkSpecifier {
  return Object.prototype.hasOwnProperty.call(PLUGIN_SDK_EXPORTS, specifier);
}

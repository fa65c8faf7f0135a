/**
 * The runtime values of the `openclaw/plugin-sdk` modules plugins import, as ContextScope provides them inside
 * an engine host. The shim files in ./shims re-export these from a process-global slot that the engine host
 * fills before any plugin code runs (so ESM, CJS and jiti-loaded copies of a shim all see the same SDK).
 */
import type { CompactParams, CompactResult } from '../../contract';
import { redactSensitiveText } from './redactSensitiveText';
import { createSqliteRuntime, type SqliteRuntime } from './sqliteRuntime';
import {
  createSessionStoreTranscriptRuntime,
  createSessionTranscriptRuntime,
  type SessionStoreTranscriptRuntime,
  type SessionTranscriptRuntime,
} from './transcript/sessionTranscriptRuntime';
import { SessionTranscriptRegistry } from './transcript/transcriptLocator';

export const PLUGIN_SDK_GLOBAL = Symbol.for('contextscope.openclaw.pluginSdk');

/** What the SDK needs from its host (the engine host wires these to the parent process). */
export interface PluginSdkBridge {
  /** runs the app's built-in compaction for a non-owning engine's compact() */
  delegateCompaction(params: CompactParams): Promise<CompactResult>;
  /** the memory section OpenClaw's active memory plugin would contribute; empty/undefined → no section */
  memoryPromptSection?: string;
}

export interface MemoryPromptParams {
  availableTools?: Set<string> | string[];
  citationsMode?: string;
  agentId?: string;
  agentSessionKey?: string;
  sandboxed?: boolean;
}

export interface PluginEntryDefinition {
  id?: string;
  name?: string;
  description?: string;
  configSchema?: unknown;
  register(api: unknown): unknown;
  [key: string]: unknown;
}

export interface OpenClawPluginSdk {
  core: {
    buildMemorySystemPromptAddition(params?: MemoryPromptParams): string | undefined;
    prepareMemorySystemPromptAddition(params?: MemoryPromptParams): Promise<string | undefined>;
    delegateCompactionToRuntime(params: CompactParams): Promise<CompactResult>;
    definePluginEntry<T extends PluginEntryDefinition>(entry: T): T;
    redactSensitiveText: typeof redactSensitiveText;
  };
  pluginEntry: { definePluginEntry<T extends PluginEntryDefinition>(entry: T): T };
  loggingCore: { redactSensitiveText: typeof redactSensitiveText };
  /** `openclaw/plugin-sdk`: the union of the above */
  root: OpenClawPluginSdk['core'];
  sessionTranscriptRuntime: SessionTranscriptRuntime;
  /** the transcript reads of `openclaw/plugin-sdk/session-store-runtime` */
  sessionStoreRuntime: SessionStoreTranscriptRuntime;
  sqliteRuntime: SqliteRuntime;
  /**
   * Where the transcript of each session is, as the engine host learns it: `noteEngineCall(params)` with the params
   * of every engine call (those with `sessionId` and `sessionFile` are remembered), or `noteSessionTranscript`.
   */
  transcripts: {
    noteSessionTranscript(sessionId: string, sessionFile: string, sessionKey?: string): void;
    noteEngineCall(params: unknown): void;
  };
}

export { PLUGIN_SDK_EXPORTS, PLUGIN_SDK_SHIM_FILES, type PluginSdkSpecifier } from './sdkExports';

export function createOpenClawPluginSdk(bridge: PluginSdkBridge): OpenClawPluginSdk {
  const section = bridge.memoryPromptSection?.trim() ? bridge.memoryPromptSection : undefined;
  const definePluginEntry = <T extends PluginEntryDefinition>(entry: T): T => entry;
  const core: OpenClawPluginSdk['core'] = {
    buildMemorySystemPromptAddition: () => section,
    prepareMemorySystemPromptAddition: async () => section,
    delegateCompactionToRuntime: (params) => bridge.delegateCompaction(params),
    definePluginEntry,
    redactSensitiveText,
  };
  const registry = new SessionTranscriptRegistry();
  return {
    core,
    root: core,
    pluginEntry: { definePluginEntry },
    loggingCore: { redactSensitiveText },
    sessionTranscriptRuntime: createSessionTranscriptRuntime(registry),
    sessionStoreRuntime: createSessionStoreTranscriptRuntime(registry),
    sqliteRuntime: createSqliteRuntime(),
    transcripts: {
      noteSessionTranscript: (sessionId, sessionFile, sessionKey) => registry.note(sessionId, sessionFile, sessionKey),
      noteEngineCall: (params) => registry.noteCallParams(params),
    },
  };
}

export function installPluginSdkGlobal(sdk: OpenClawPluginSdk): void {
  (globalThis as Record<symbol, unknown>)[PLUGIN_SDK_GLOBAL] = sdk;
}

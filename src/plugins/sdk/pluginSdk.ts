/**
 * The runtime values of the `openclaw/plugin-sdk` modules plugins import, as ContextScope provides them inside
 * an engine host. The shim files in ./shims re-export these from a process-global slot that the engine host
 * fills before any plugin code runs (so ESM, CJS and jiti-loaded copies of a shim all see the same SDK).
 */
import type { CompactParams, CompactResult } from '../../contract';
import { redactSensitiveText } from './redactSensitiveText';

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
}

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
} as const;

export type PluginSdkSpecifier = keyof typeof PLUGIN_SDK_EXPORTS;

/** Shim file base names (in ./shims, as .mjs and .cjs) by specifier. */
export const PLUGIN_SDK_SHIM_FILES: Record<PluginSdkSpecifier, string> = {
  'openclaw/plugin-sdk': 'index',
  'openclaw/plugin-sdk/core': 'core',
  'openclaw/plugin-sdk/plugin-entry': 'plugin-entry',
  'openclaw/plugin-sdk/logging-core': 'logging-core',
};

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
  return {
    core,
    root: core,
    pluginEntry: { definePluginEntry },
    loggingCore: { redactSensitiveText },
  };
}

export function installPluginSdkGlobal(sdk: OpenClawPluginSdk): void {
  (globalThis as Record<symbol, unknown>)[PLUGIN_SDK_GLOBAL] = sdk;
}

/**
 * The plugin-facing `api.registerContextEngine(id, factory)` (behaviour §2.1) with OpenClaw's registration
 * diagnostics. Each plugin gets its own api object; registrations land in the runtime under `plugin:<id>`.
 */
import type { ContextEngineFactory, ContextEngineLifecycle, Logger, OpenClawConfig } from '../contract';
import {
  pluginContextEngineOwner,
  RESERVED_CONTEXT_ENGINE_ID,
  type RegisterContextEngineOptions,
  type RegisterContextEngineResult,
} from './registry';

/** `"full"` loads for real; the other modes OpenClaw uses are discovery passes. */
export type PluginRegistrationMode = 'full' | 'discovery' | 'cli-metadata' | 'tool-discovery' | (string & {});

/** A registration diagnostic recorded on the plugin (OpenClaw wording). */
export interface PluginDiagnostic {
  level: 'error' | 'warn';
  message: string;
}

/** Options of `runtime.createPluginApi`. */
export interface CreatePluginApiOptions {
  /** default `"full"` */
  registrationMode?: PluginRegistrationMode;
  /** the root OpenClaw config the plugin sees as `api.config` */
  config?: OpenClawConfig;
  /** `plugins.entries.<id>.config` */
  pluginConfig?: Record<string, unknown>;
  logger?: Logger;
  name?: string;
  source?: string;
}

/** The subset of OpenClaw's plugin api that concerns context engines. */
export interface ContextEnginePluginApi {
  id: string;
  name?: string;
  source?: string;
  registrationMode: PluginRegistrationMode;
  config: OpenClawConfig;
  pluginConfig: Record<string, unknown>;
  logger: Logger;
  registerContextEngine(id: string, factory: ContextEngineFactory): void;
}

/** The api handed to a plugin plus the live record of what it registered. */
export interface PluginApiHandle {
  api: ContextEnginePluginApi;
  /** live list: registration failures are appended as they happen */
  diagnostics: PluginDiagnostic[];
  /** live list of ids this plugin registered successfully (the plugin record's `contextEngineIds`) */
  contextEngineIds: string[];
}

/** The runtime registration function the plugin api writes through. */
export type RegisterForOwner = (
  id: string,
  factory: ContextEngineFactory,
  owner: string,
  options: RegisterContextEngineOptions,
) => RegisterContextEngineResult;

/** The lifecycle a plugin's registrations get: `runtime` for `"full"`, `readOnlyDiscovery` otherwise. */
export function lifecycleForRegistrationMode(mode: PluginRegistrationMode): ContextEngineLifecycle {
  return mode === 'full' ? 'runtime' : 'readOnlyDiscovery';
}

/** Build a plugin api whose `registerContextEngine` validates, registers and records diagnostics. */
export function createContextEnginePluginApi(
  pluginId: string,
  options: CreatePluginApiOptions,
  registerForOwner: RegisterForOwner,
  fallbackLogger: Logger,
): PluginApiHandle {
  if (typeof pluginId !== 'string' || pluginId.trim().length === 0) {
    throw new Error(`createPluginApi: pluginId must be a non-empty string, got ${JSON.stringify(pluginId)}`);
  }
  const registrationMode = options.registrationMode ?? 'full';
  const lifecycle = lifecycleForRegistrationMode(registrationMode);
  const owner = pluginContextEngineOwner(pluginId);
  const diagnostics: PluginDiagnostic[] = [];
  const contextEngineIds: string[] = [];
  const fail = (message: string) => diagnostics.push({ level: 'error', message });

  const api: ContextEnginePluginApi = {
    id: pluginId,
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.source !== undefined ? { source: options.source } : {}),
    registrationMode,
    config: options.config ?? {},
    pluginConfig: options.pluginConfig ?? {},
    logger: options.logger ?? fallbackLogger,
    registerContextEngine(rawId: string, factory: ContextEngineFactory): void {
      const id = typeof rawId === 'string' ? rawId.trim() : '';
      if (!id) return void fail('context engine registration missing id');
      if (typeof factory !== 'function') return void fail(`context engine "${id}" registration missing factory`);
      if (id === RESERVED_CONTEXT_ENGINE_ID) return void fail(`context engine id reserved by core: ${id}`);
      const result = registerForOwner(id, factory, owner, { allowSameOwnerRefresh: true, lifecycle });
      if (!result.ok)
        return void fail(`context engine already registered: ${id} (${result.existingOwner ?? 'unknown'})`);
      if (!contextEngineIds.includes(id)) contextEngineIds.push(id);
    },
  };
  return { api, diagnostics, contextEngineIds };
}

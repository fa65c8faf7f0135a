/**
 * A plugin lane: find the plugin (a folder path, or an id through discovery including the bundled
 * `resources/plugins`), load it into its own engine host with per-lane folders, and register its engines into
 * the lane's runtime. The SDK's `delegateCompactionToRuntime` runs the built-in compaction on the lane's own
 * transcript; `runtime.llm.complete` is backed by the replay's summarizer. A plugin that cannot load leaves the
 * slot pointing at an unregistered id, so the lane falls back to legacy exactly as OpenClaw would (quarantine
 * `resolve: not registered`), and the reason is reported on the lane.
 */
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OpenClawConfig } from '../../contract';
import { delegateCompactionToRuntime } from '../../engines/legacy';
import {
  allowExecuteConsent,
  createConsentStore,
  defaultConsentFile,
  discoverPlugins,
  formatProblem,
  loadPlugin,
  describeHostGrants,
  type DiscoveredPlugin,
  type LoadPluginOptions,
  type PluginConsent,
  type PluginSandboxInfo,
} from '../../plugins';
import { withDelegatedCompactionHooks } from './hooks/compactionHooks';
import { newLaneSandboxState, noteLaneAccessDenial } from '../findings/sandboxFindings';
import { resolveLaneTranscript, type LaneGroup } from './laneGroup';
import type { LaneEngineSource, PluginLoadingOptions } from './replayTypes';

/** OpenClaw-independent engine-host deadlines (src/plugins/host/remoteEngine.ts): each call, and compact at least. */
const DEFAULT_CALL_TIMEOUT_MS = 30_000;
const DEFAULT_COMPACT_TIMEOUT_MS = 180_000;

export interface PluginLaneResult {
  /** the engine id the lane's slot selects */
  engineId: string;
  pluginId?: string;
  pluginPath?: string;
  /** events the plugin subscribed to with `api.on` (sorted, once each) */
  hooks?: string[];
  error?: string;
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Find the plugin a lane names: a folder on disk, else a discovered plugin id. */
export function findLanePlugin(
  spec: string,
  options: { config?: OpenClawConfig; plugins?: PluginLoadingOptions },
): { plugin?: DiscoveredPlugin; error?: string } {
  const asPath = resolve(spec);
  const isPath = existsSync(asPath);
  const found = discoverPlugins({
    ...(options.config ? { config: options.config } : {}),
    ...(isPath ? { extraPaths: [asPath] } : {}),
    ...(options.plugins?.stateDir ? { stateDir: options.plugins.stateDir } : {}),
    ...(options.plugins?.workspaceDir ? { workspaceDir: options.plugins.workspaceDir } : {}),
    ...(options.plugins?.bundledDir ? { bundledDir: options.plugins.bundledDir } : {}),
  });
  if (isPath) {
    const real = realpathOrSelf(asPath);
    const plugin = found.find((p) => p.realPath === real || p.rootDir === asPath);
    if (plugin) return { plugin };
    return { error: `${asPath} is not a plugin folder: it has no openclaw.plugin.json (or it could not be read).` };
  }
  const plugin = found.find((p) => p.id === spec);
  if (plugin) return { plugin };
  const ids = found.map((p) => p.id).sort();
  return {
    error: `No plugin with id "${spec}" was found (discovered: ${ids.length ? ids.join(', ') : 'none'}). Pass a plugin folder path or one of these ids.`,
  };
}

/** Why the lane's engine host is not (fully) confined by Node's permission model; undefined when it is. */
function unconfinedNote(sandbox: PluginSandboxInfo | undefined): string | undefined {
  if (!sandbox) return undefined;
  if (!sandbox.confined)
    return `This lane's engine host runs without Node's permission model: ${sandbox.reason ?? 'no reason given'}. The plugin can read and write what your user account can, and start processes.`;
  const granted = describeHostGrants(sandbox.grants);
  if (granted)
    return `This lane's engine host runs under Node's permission model, but ${granted} are granted to the plugin: what it starts that way is not confined (a process runs with your rights; a worker thread can be started with the model off).`;
  return undefined;
}

/** The consent the lane's plugin runs under: the caller's, the app's for this run, --allow-execute, or the store. */
function laneConsent(options: { plugins?: PluginLoadingOptions; consent?: PluginConsent }): PluginConsent {
  return (
    options.consent ??
    options.plugins?.consent ??
    (options.plugins?.allowExecute
      ? allowExecuteConsent()
      : createConsentStore(options.plugins?.consentFile ?? defaultConsentFile()))
  );
}

/**
 * The lane's part of the engine host's permission model: what it may read besides its plugin (the lane's transcripts:
 * its own folder, and its subagent lanes' `<lane folder>_<child>`, laneNames.ts fsSafe), the grants the lane asks for,
 * and the group's record of what the model refuses.
 */
function laneSandboxOptions(
  group: LaneGroup,
  source: Extract<LaneEngineSource, { kind: 'plugin' }>,
  options: { laneDir: string; plugins?: PluginLoadingOptions },
): Pick<LoadPluginOptions, 'sandbox' | 'grants' | 'onAccessDenied'> {
  const sandbox = newLaneSandboxState();
  group.sandbox = sandbox;
  return {
    sandbox: options.plugins?.sandbox === false ? false : { read: [options.laneDir, `${options.laneDir}_*`] },
    ...(source.allow ? { grants: source.allow } : {}),
    onAccessDenied: (denial) => noteLaneAccessDenial(sandbox, denial),
  };
}

/** openclaw.json with the slot pointing at the lane's engine and the plugin enabled with the lane's config. */
function withLanePluginConfig(
  base: OpenClawConfig,
  source: Extract<LaneEngineSource, { kind: 'plugin' }>,
  pluginId: string,
): OpenClawConfig {
  return {
    ...base,
    plugins: {
      ...(base.plugins ?? {}),
      slots: { ...(base.plugins?.slots ?? {}), contextEngine: source.engineId ?? pluginId },
      entries: {
        ...(base.plugins?.entries ?? {}),
        [pluginId]: { ...(base.plugins?.entries?.[pluginId] ?? {}), enabled: true, config: source.pluginConfig ?? {} },
      },
    },
  };
}

export async function loadPluginLane(
  group: LaneGroup,
  source: Extract<LaneEngineSource, { kind: 'plugin' }>,
  options: { laneDir: string; config: OpenClawConfig; plugins?: PluginLoadingOptions; consent?: PluginConsent },
): Promise<PluginLaneResult> {
  const fallbackId = source.engineId ?? source.plugin;
  const first = findLanePlugin(source.plugin, {
    config: options.config,
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  if (!first.plugin) return { engineId: fallbackId, error: first.error };

  // Discover again with this lane's plugin config in place, so defaults and validation apply to it.
  let plugin = first.plugin;
  const config = withLanePluginConfig(options.config, source, plugin.id);
  const again = findLanePlugin(plugin.rootDir, { config, ...(options.plugins ? { plugins: options.plugins } : {}) });
  if (again.plugin) plugin = again.plugin;

  const dirs = join(options.laneDir, 'plugin');
  const laneDirs = { home: join(dirs, 'home'), tmpDir: join(dirs, 'tmp'), cwd: group.workspaceDir };
  for (const d of [laneDirs.home, laneDirs.tmpDir]) mkdirSync(d, { recursive: true });

  group.callTimeoutMs = source.callTimeoutMs ?? options.plugins?.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const maxMessageBytes = source.maxResultBytes ?? options.plugins?.maxResultBytes;
  const loaded = await loadPlugin(plugin, {
    ...laneSandboxOptions(group, source, options),
    runtime: group.runtime,
    deadlines: { defaultMs: group.callTimeoutMs, compactMs: Math.max(group.callTimeoutMs, DEFAULT_COMPACT_TIMEOUT_MS) },
    config,
    consent: laneConsent(options),
    compactionDelegate: (params) => {
      group.delegatedCompactions++;
      return withDelegatedCompactionHooks(group, params, () =>
        delegateCompactionToRuntime(params, {
          resolveTranscript: (ref) => resolveLaneTranscript(group, ref),
          summarizer: group.summarizer,
          settings: group.settings,
        }),
      );
    },
    llm: group.summarizer,
    laneDirs,
    limits: {
      ...(maxMessageBytes !== undefined ? { maxMessageBytes } : {}),
      ...(options.plugins?.maxHeapMb !== undefined ? { maxHeapMb: options.plugins.maxHeapMb } : {}),
    },
    ...(source.hostCodec ? { hostCodec: source.hostCodec } : {}),
    ...(options.plugins?.nodePath ? { nodePath: options.plugins.nodePath } : {}),
    ...(options.plugins?.hostEntry ? { hostEntry: options.plugins.hostEntry } : {}),
    ...(options.plugins?.transport ? { transport: options.plugins.transport } : {}),
  });
  group.closers.push(() => loaded.close());
  if (group.sandbox && loaded.status !== 'not-executed') group.sandbox.unconfined = unconfinedNote(loaded.sandbox);
  group.hostLiveness = { checkResponsive: () => loaded.checkResponsive(), stopReason: () => loaded.host?.stopReason };

  const base = { pluginId: plugin.id, pluginPath: plugin.rootDir };
  if (loaded.status === 'not-executed') {
    return {
      ...base,
      engineId: source.engineId ?? plugin.id,
      error: `Plugin "${plugin.id}" (${plugin.rootDir}): ${loaded.statusMessage}. The lane ran on legacy instead.`,
    };
  }
  if (loaded.engineIds.length === 0) {
    const why = loaded.errors.length ? loaded.errors.map(formatProblem).join('; ') : loaded.statusMessage;
    return {
      ...base,
      engineId: source.engineId ?? plugin.id,
      error: `Plugin "${plugin.id}" (${plugin.rootDir}) registered no context engine: ${why || 'no reason given'}. The lane runs on legacy.`,
    };
  }
  if (source.engineId && !loaded.engineIds.includes(source.engineId)) {
    return {
      ...base,
      engineId: source.engineId,
      error: `Plugin "${plugin.id}" registered ${loaded.engineIds.join(', ')}, not "${source.engineId}". Use engine=<one of those> in the lane spec.`,
    };
  }
  const hooks = [...new Set((loaded.registrations?.hooks ?? []).map((hook) => hook.event))].sort();
  if (hooks.length > 0) group.hooks = { pluginId: plugin.id, registered: hooks, run: (i) => loaded.runHooks(i) };
  return { ...base, engineId: source.engineId ?? loaded.engineIds[0], ...(hooks.length > 0 ? { hooks } : {}) };
}

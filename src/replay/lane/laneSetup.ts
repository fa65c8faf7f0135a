/**
 * Turning a lane description into a running lane group: its own context runtime (legacy registered with the
 * built-in compaction bound to the lane's transcripts), the lane's engine registered (in-process factory or a
 * plugin loaded into an engine host), openclaw.json with the slot pointing at it, the host and the settings.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextEngineHostSupport, OpenClawConfig } from '../../contract';
import { createLegacyContextEngine } from '../../engines/legacy';
import {
  agentHarnessContextEngineHost,
  cliContextEngineHost,
  CODEX_APP_SERVER_CONTEXT_ENGINE_HOST,
  OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
  resolveCompactionSettings,
} from '../../runtime';
import { createContextRuntime } from '../../engines';
import type { Summarizer } from '../../summarize';
import { resolveLaneTranscript, type LaneGroup } from './laneGroup';
import type { HostSpec } from './laneSpec';
import type { PluginLoadingOptions, ReplayLaneConfig } from './replayTypes';

export function hostSupportFor(host: HostSpec | undefined): ContextEngineHostSupport {
  if (!host || host === 'embedded') return OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST;
  if (host === 'codex') return CODEX_APP_SERVER_CONTEXT_ENGINE_HOST;
  if (host.startsWith('cli:')) return cliContextEngineHost(host.slice('cli:'.length));
  return agentHarnessContextEngineHost(host.slice('agent-harness:'.length));
}

function withSlot(
  config: OpenClawConfig | undefined,
  engineId: string,
  compaction: Record<string, unknown>,
): OpenClawConfig {
  const base = config ?? {};
  return {
    ...base,
    plugins: { ...(base.plugins ?? {}), slots: { ...(base.plugins?.slots ?? {}), contextEngine: engineId } },
    agents: {
      ...(base.agents ?? {}),
      defaults: {
        ...(base.agents?.defaults ?? {}),
        compaction: { ...(base.agents?.defaults?.compaction ?? {}), ...compaction },
      },
    },
  };
}

export interface LaneGroupSetup {
  group: LaneGroup;
  /** a lane-level problem (the plugin could not be loaded, ...): the lane still runs, on legacy */
  error?: string;
  pluginId?: string;
  pluginPath?: string;
  /** events the lane's plugin subscribed to with `api.on` (the replay does not run them) */
  pluginHooks?: string[];
}

export async function createLaneGroup(
  lane: ReplayLaneConfig,
  laneDir: string,
  deps: {
    summarizer: Summarizer;
    model: string | null;
    provider: string | null;
    plugins?: PluginLoadingOptions;
  },
): Promise<LaneGroupSetup> {
  const agentDir = join(laneDir, 'agent');
  const workspaceDir = join(laneDir, 'workspace');
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(workspaceDir, { recursive: true });

  const settings = resolveCompactionSettings({
    contextTokenBudget: lane.contextWindow,
    reserveTokens: lane.reserveTokens,
    reserveTokensFloor: lane.reserveTokensFloor,
    keepRecentTokens: lane.keepRecentTokens,
    enabled: lane.compactionEnabled,
  });
  const compactionConfig: Record<string, unknown> = {
    ...(lane.reserveTokens !== undefined ? { reserveTokens: lane.reserveTokens } : {}),
    ...(lane.keepRecentTokens !== undefined ? { keepRecentTokens: lane.keepRecentTokens } : {}),
    ...(lane.reserveTokensFloor !== undefined ? { reserveTokensFloor: lane.reserveTokensFloor } : {}),
    ...(lane.compactionEnabled !== undefined ? { enabled: lane.compactionEnabled } : {}),
  };

  // The group object is filled in below; the runtime's callbacks read it lazily.
  const group = {
    host: hostSupportFor(lane.host),
    contextWindow: lane.contextWindow,
    settings,
    compactionEnabled: lane.compactionEnabled !== false && settings.enabled,
    model: lane.model ?? deps.model,
    provider: deps.provider,
    summarizer: deps.summarizer,
    agentDir,
    workspaceDir,
    quarantineLog: [],
    routing: { active: [], unattributed: [] },
    transcripts: new Map(),
    delegatedCompactions: 0,
    closers: [],
  } as unknown as LaneGroup;

  group.runtime = createContextRuntime({
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    legacyFactory: () =>
      createLegacyContextEngine({
        summarizer: deps.summarizer,
        resolveTranscript: (ref) => resolveLaneTranscript(group, ref),
        compaction: group.settings,
      }),
    onEvent: (event) => {
      if (event.type !== 'quarantine') return;
      const entry = {
        engineId: event.engineId,
        ...(event.owner ? { owner: event.owner } : {}),
        operation: event.operation,
        reason: event.reason,
        failedAt: event.failedAt,
      };
      group.quarantineLog.push(entry);
      const active = group.routing.active[group.routing.active.length - 1];
      if (active) active.onQuarantine(entry);
      else group.routing.unattributed.push(entry);
    },
  });

  let error: string | undefined;
  const engine = lane.engine;
  if (engine.kind === 'legacy') {
    group.requestedEngineId = 'legacy';
    group.source = 'legacy';
  } else if (engine.kind === 'in-process') {
    group.requestedEngineId = engine.engineId;
    group.source = 'in-process';
    const registered = group.runtime.registerContextEngineForOwner(
      engine.engineId,
      engine.factory,
      engine.owner ?? 'plugin:in-process',
      {
        allowSameOwnerRefresh: true,
        lifecycle: 'runtime',
      },
    );
    if (!registered.ok) {
      error = `Cannot register in-process engine "${engine.engineId}": already registered by ${registered.existingOwner ?? 'another owner'}.`;
    }
  } else {
    group.source = 'plugin';
    // loaded on demand: legacy and in-process lanes never touch the plugin machinery
    const { loadPluginLane } = await import('./loadPluginLane');
    const loaded = await loadPluginLane(group, engine, {
      laneDir,
      config: withSlot(lane.config, engine.engineId ?? '', compactionConfig),
      ...(deps.plugins ? { plugins: deps.plugins } : {}),
    });
    group.requestedEngineId = loaded.engineId;
    if (loaded.error) error = loaded.error;
    group.config = withSlot(lane.config, group.requestedEngineId, compactionConfig);
    return {
      group,
      ...(error !== undefined ? { error } : {}),
      ...(loaded.pluginId ? { pluginId: loaded.pluginId } : {}),
      ...(loaded.pluginPath ? { pluginPath: loaded.pluginPath } : {}),
      ...(loaded.hooks ? { pluginHooks: loaded.hooks } : {}),
    };
  }
  group.config = withSlot(lane.config, group.requestedEngineId, compactionConfig);
  return { group, ...(error !== undefined ? { error } : {}) };
}

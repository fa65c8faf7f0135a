/**
 * Turning a lane description into a running lane group: its own context runtime (legacy registered with the
 * built-in compaction bound to the lane's transcripts), the lane's engine registered (in-process factory or a
 * plugin loaded into an engine host), openclaw.json with the slot pointing at it, the host and the settings.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContextEngineHostSupport, OpenClawConfig } from '../../contract';
import { createLegacyContextEngine, type HarnessBehaviour } from '../../engines/legacy';
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
import type { OpenClawVersionProfile } from './openclawVersion';

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

interface LaneGroupDeps {
  summarizer: Summarizer;
  model: string | null;
  provider: string | null;
  /** the OpenClaw release line the replay behaves as */
  profile: OpenClawVersionProfile;
  plugins?: PluginLoadingOptions;
}

/** The plugin config's `compaction` settings the lane overrides. */
function compactionConfigOf(lane: ReplayLaneConfig): Record<string, unknown> {
  return {
    ...(lane.reserveTokens !== undefined ? { reserveTokens: lane.reserveTokens } : {}),
    ...(lane.keepRecentTokens !== undefined ? { keepRecentTokens: lane.keepRecentTokens } : {}),
    ...(lane.reserveTokensFloor !== undefined ? { reserveTokensFloor: lane.reserveTokensFloor } : {}),
    ...(lane.compactionEnabled !== undefined ? { enabled: lane.compactionEnabled } : {}),
  };
}

/** The lane's folders and settings; runtime, engine id, source and config are filled in by the caller. */
function newLaneGroup(lane: ReplayLaneConfig, laneDir: string, deps: LaneGroupDeps): LaneGroup {
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
    reserveRule: deps.profile.reserveRule,
  });
  return {
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
}

/**
 * The lane's own context runtime: legacy with the built-in compaction bound to the lane's transcripts, and every
 * quarantine routed to the lane turn running at that moment (or kept for the lane's first draft).
 */
function createLaneRuntime(group: LaneGroup, summarizer: Summarizer, harness: HarnessBehaviour): LaneGroup['runtime'] {
  return createContextRuntime({
    logger: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    // a quarantine's failedAt is transcript time (the group's latest entry), not the wall clock: replays repeat
    now: () => new Date(Math.max(0, ...[...group.transcripts.values()].map((t) => t.latestEntryMs))),
    legacyFactory: () =>
      createLegacyContextEngine({
        summarizer,
        resolveTranscript: (ref) => resolveLaneTranscript(group, ref),
        compaction: group.settings,
        harness,
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
}

/** Registers an in-process lane's engine factory; the error when the id is taken. */
function registerInProcessEngine(
  group: LaneGroup,
  engine: Extract<ReplayLaneConfig['engine'], { kind: 'in-process' }>,
): string | undefined {
  group.requestedEngineId = engine.engineId;
  group.source = 'in-process';
  const registered = group.runtime.registerContextEngineForOwner(
    engine.engineId,
    engine.factory,
    engine.owner ?? 'plugin:in-process',
    { allowSameOwnerRefresh: true, lifecycle: 'runtime' },
  );
  if (registered.ok) return undefined;
  return `Cannot register in-process engine "${engine.engineId}": already registered by ${registered.existingOwner ?? 'another owner'}.`;
}

async function setUpPluginLane(
  group: LaneGroup,
  lane: ReplayLaneConfig,
  engine: Extract<ReplayLaneConfig['engine'], { kind: 'plugin' }>,
  laneDir: string,
  deps: LaneGroupDeps,
): Promise<LaneGroupSetup> {
  group.source = 'plugin';
  const compactionConfig = compactionConfigOf(lane);
  // loaded on demand: legacy and in-process lanes never touch the plugin machinery
  const { loadPluginLane } = await import('./loadPluginLane');
  const loaded = await loadPluginLane(group, engine, {
    laneDir,
    config: withSlot(lane.config, engine.engineId ?? '', compactionConfig),
    ...(deps.plugins ? { plugins: deps.plugins } : {}),
  });
  group.requestedEngineId = loaded.engineId;
  group.config = withSlot(lane.config, group.requestedEngineId, compactionConfig);
  return {
    group,
    ...(loaded.error ? { error: loaded.error } : {}),
    ...(loaded.pluginId ? { pluginId: loaded.pluginId } : {}),
    ...(loaded.pluginPath ? { pluginPath: loaded.pluginPath } : {}),
    ...(loaded.hooks ? { pluginHooks: loaded.hooks } : {}),
  };
}

/** OpenClaw before 2026.3.7 has no context-engine slot: a session it wrote never ran another engine. */
function noSlotError(profile: OpenClawVersionProfile): string {
  return (
    `OpenClaw ${profile.version} has no context-engine slot (it came in 2026.3.7): the session ran OpenClaw's ` +
    'built-in pipeline only, so this lane shows an engine that could not have run there.'
  );
}

export async function createLaneGroup(
  lane: ReplayLaneConfig,
  laneDir: string,
  deps: LaneGroupDeps,
): Promise<LaneGroupSetup> {
  const group = newLaneGroup(lane, laneDir, deps);
  group.runtime = createLaneRuntime(group, deps.summarizer, deps.profile);
  const engine = lane.engine;
  const noSlot = engine.kind !== 'legacy' && !deps.profile.contextEngineSlot ? noSlotError(deps.profile) : undefined;
  if (engine.kind === 'plugin') {
    const setup = await setUpPluginLane(group, lane, engine, laneDir, deps);
    return noSlot ? { ...setup, error: setup.error ? `${noSlot} ${setup.error}` : noSlot } : setup;
  }
  let error: string | undefined = noSlot;
  if (engine.kind === 'in-process') {
    const registered = registerInProcessEngine(group, engine);
    if (registered !== undefined) error = error ? `${error} ${registered}` : registered;
  } else {
    group.requestedEngineId = 'legacy';
    group.source = 'legacy';
  }
  group.config = withSlot(lane.config, group.requestedEngineId, compactionConfigOf(lane));
  return { group, ...(error !== undefined ? { error } : {}) };
}

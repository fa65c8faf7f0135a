/**
 * `contextscope doctor`: OpenClaw's `openclaw doctor` for context engines, and more. Without execution it
 * reports manifest, entry, schema and config problems, stale `plugins.entries`, shadowed duplicates and
 * disabled plugins. With consent (--allow-execute) it loads every plugin twice (registrationMode "full" and
 * "discovery"), resolves the slot, smoke-drives each engine (bootstrap if present, ingest, one assemble on a
 * tiny synthetic conversation; quarantines are reported with operation and reason), probes compact() on a
 * fresh instance against a throwaway transcript, and reports the engine faults that reveals.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import type { CompactParams, CompactResult, OpenClawConfig } from '../../contract';
import { createContextRuntime } from '../../engines';
import type { ContextRuntime } from '../../runtime';
import { allowExecuteConsent, createConsentStore, type PluginConsent } from '../consent';
import { discoverPlugins } from '../discoverPlugins';
import type { EngineHostEntry } from '../host/hostEntry';
import type { EngineDeadlines } from '../host/remoteEngine';
import type { EngineHostTransportFactory } from '../host/transport';
import { loadPlugin, type LoadedPlugin, type LoadPluginOptions } from '../loadPlugin';
import type { DiscoveredPlugin } from '../types';
import { buildReport, pluginReport, type LoadOutcome } from './buildReport';
import { compactProbe } from './compactProbe';
import { pluginProblemFindings, staleEntryFindings } from './discoveryFindings';
import { sdkImportFindings } from './sdkImportFindings';
import { hookFindings } from './hookFindings';
import { loadFindings, notExecutedFinding, registeredEngineIds, registrationModeFindings } from './loadFindings';
import { hostStoppedFinding, quarantineFindings } from './quarantineFindings';
import type { DoctorPluginOutcome, DoctorProgress } from './doctorProgress';
import type { DoctorFinding, DoctorPluginReport, DoctorReport } from './reportTypes';
import type { EngineRef } from './resultChecks';
import { RuntimeWatch } from './runtimeWatch';
import { settle } from './settle';
import { checkSlot, contextEngineSlot } from './slotCheck';
import { smokeDrive } from './smokeDrive';

export interface RunDoctorOptions {
  config?: OpenClawConfig;
  /** shown in the report */
  configPath?: string;
  workspaceDir?: string;
  stateDir?: string;
  /** `--plugin`: examine only these plugin folders (linked for this run, never copied) */
  pluginPaths?: string[];
  /** the bundled sample plugins folder; false leaves them out */
  bundledDir?: string | false;
  /** `--allow-execute`: run every plugin's code for this run */
  allowExecute?: boolean;
  /** consent used without allowExecute (default: the app's persisted consent store) */
  consent?: PluginConsent;
  /** default: 10 s per call, 30 s for compact */
  deadlines?: Partial<EngineDeadlines>;
  nodePath?: string;
  env?: Record<string, string>;
  createRuntime?: () => ContextRuntime;
  unresponsiveGraceMs?: number;
  hostEntry?: Partial<EngineHostEntry>;
  transport?: EngineHostTransportFactory;
  /** told as each plugin is loaded, as each engine is driven and as each plugin is checked (doctorProgress.ts) */
  onProgress?(step: DoctorProgress): void;
}

/** `--timeout <ms>` / `doctor.run {timeoutMs}`: each engine call's deadline; compact keeps at least its 30 s. */
export function doctorDeadlines(timeoutMs: number): Partial<EngineDeadlines> {
  return { defaultMs: timeoutMs, compactMs: Math.max(timeoutMs, 30_000) };
}

const QUIET_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };

export async function runDoctor(options: RunDoctorOptions = {}): Promise<DoctorReport> {
  const config = options.config ?? {};
  const findings: DoctorFinding[] = [];
  const add = (finding: DoctorFinding) => findings.push(finding);
  const { discovered, selected, focused } = selectPlugins(config, options);
  for (const f of staleEntryFindings(config, discovered)) add(f);
  for (const plugin of selected) for (const f of pluginProblemFindings(plugin)) add(f);
  const sdkExportsReported = new Map<string, Set<string>>();
  for (const plugin of selected) {
    const scan = sdkImportFindings(plugin);
    for (const f of scan.findings) add(f);
    sdkExportsReported.set(plugin.id, scan.missing);
  }

  const run = new DoctorRun(config, options, add, sdkExportsReported);
  const slot = contextEngineSlot(config);
  const progress = progressTeller(selected, options.onProgress, (plugin) =>
    pluginOutcome(plugin, run, [...findings, ...quarantineFindings(run.watch.quarantines, slot)]),
  );
  try {
    for (const plugin of selected) {
      progress.loading(plugin.id);
      await run.loadPlugin(plugin);
      // a plugin whose engines are not driven is checked once loaded (or refused); the others wait for every load
      if (run.drives(plugin.id)) progress.loaded(plugin.id);
      else progress.checked(plugin.id);
    }
    const { runtime, executed, watch } = run;
    const workspaceDir = options.workspaceDir;
    for (const f of await checkSlot({ runtime, config, slot, executed, focused, discovered, workspaceDir, watch })) {
      add(f);
    }
    await run.driveEngines(progress);
  } finally {
    await run.close();
  }

  for (const f of quarantineFindings(run.watch.quarantines, slot)) add(f);
  const plugins = selected.map((plugin) => run.report(plugin));
  const { executed, watch } = run;
  return buildReport({
    findings,
    executed,
    plugins,
    configPath: options.configPath,
    slot,
    quarantines: watch.quarantines,
  });
}

/** What the report will say of one plugin: its status and its findings (quarantines included) by severity. */
function pluginOutcome(plugin: DiscoveredPlugin, run: DoctorRun, findings: readonly DoctorFinding[]) {
  const report = run.report(plugin);
  const own = findings.filter((f) => f.where.pluginId === plugin.id);
  const count = (severity: DoctorFinding['severity']) => own.filter((f) => f.severity === severity).length;
  return {
    status: report.status,
    statusMessage: report.statusMessage,
    engines: report.engines.length,
    errors: count('error'),
    warnings: count('warn'),
    infos: count('info'),
  };
}

interface ProgressTeller {
  loading(pluginId: string): void;
  loaded(pluginId: string): void;
  driving(pluginId: string, engine: { id: string; index: number; count: number }): void;
  checked(pluginId: string): void;
}

/** Numbers the plugins and counts those checked, for onProgress. */
function progressTeller(
  selected: readonly DiscoveredPlugin[],
  onProgress: RunDoctorOptions['onProgress'],
  outcomeOf: (plugin: DiscoveredPlugin) => DoctorPluginOutcome,
): ProgressTeller {
  const position = new Map(selected.map((plugin, i) => [plugin.id, { plugin, n: i + 1 }]));
  let checked = 0;
  const tell = (pluginId: string, phase: DoctorProgress['phase'], extra: Partial<DoctorProgress> = {}) => {
    const at = position.get(pluginId);
    if (!at || !onProgress) return;
    onProgress({ phase, pluginId, plugin: at.n, plugins: selected.length, checked, ...extra });
  };
  return {
    loading: (pluginId) => tell(pluginId, 'loading'),
    loaded: (pluginId) => tell(pluginId, 'loaded'),
    driving: (pluginId, engine) => tell(pluginId, 'driving', { engine }),
    checked(pluginId) {
      checked++;
      const at = position.get(pluginId);
      if (at) tell(pluginId, 'checked', { outcome: outcomeOf(at.plugin) });
    },
  };
}

function isUnder(path: string, roots: string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`));
}

/** Every plugin discovered, and the ones to examine: those under the --plugin folders when given, else all. */
function selectPlugins(config: OpenClawConfig, options: RunDoctorOptions) {
  const discovered = discoverPlugins({
    config,
    ...(options.workspaceDir ? { workspaceDir: options.workspaceDir } : {}),
    ...(options.stateDir ? { stateDir: options.stateDir } : {}),
    ...(options.pluginPaths ? { extraPaths: options.pluginPaths } : {}),
    ...(options.bundledDir !== undefined ? { bundledDir: options.bundledDir } : {}),
  });
  const focusRoots = (options.pluginPaths ?? []).map((p) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  });
  const selected = focusRoots.length > 0 ? discovered.filter((p) => isUnder(p.realPath, focusRoots)) : discovered;
  return { discovered, selected, focused: focusRoots.length > 0 };
}

/** One run's runtime, loads and lane folder: loads plugins, drives their engines, then closes everything. */
class DoctorRun {
  readonly runtime: ContextRuntime;
  readonly watch: RuntimeWatch;
  readonly loadedFull = new Map<string, LoadedPlugin>();
  readonly loadOutcome = new Map<string, LoadOutcome>();
  readonly discoveryEngines = new Map<string, string[]>();
  /** whether any plugin code ran */
  executed = false;
  private readonly delegatedSessions = new Set<string>();
  private readonly workDir: string;
  private readonly loadOptions: Omit<LoadPluginOptions, 'registrationMode'>;
  private readonly toClose: LoadedPlugin[] = [];
  /** numbers the smoke and probe sessions */
  private sessions = 0;

  constructor(
    private readonly config: OpenClawConfig,
    private readonly options: RunDoctorOptions,
    private readonly add: (finding: DoctorFinding) => void,
    /** per plugin: the missing SDK exports the source scan reported (not reported again from a link error) */
    private readonly sdkExportsReported: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
  ) {
    const consent = options.allowExecute ? allowExecuteConsent() : (options.consent ?? createConsentStore());
    this.runtime = options.createRuntime?.() ?? createContextRuntime({ logger: QUIET_LOGGER });
    this.watch = new RuntimeWatch(this.runtime);
    this.workDir = mkdtempSync(join(tmpdir(), 'contextscope-doctor-'));
    this.loadOptions = this.loadOptionsWith(consent);
  }

  /** What every load gets: a compaction delegate that records instead of compacting, and a canned LLM. */
  private loadOptionsWith(consent: PluginConsent): Omit<LoadPluginOptions, 'registrationMode'> {
    const options = this.options;
    return {
      runtime: this.runtime,
      config: this.config,
      consent,
      // the smoke and probe transcripts are written here: the engine host may read them
      sandbox: { read: [this.workDir] },
      deadlines: { defaultMs: 10_000, compactMs: 30_000, ...options.deadlines },
      ...(options.nodePath ? { nodePath: options.nodePath } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.unresponsiveGraceMs !== undefined ? { unresponsiveGraceMs: options.unresponsiveGraceMs } : {}),
      ...(options.hostEntry ? { hostEntry: options.hostEntry } : {}),
      ...(options.transport ? { transport: options.transport } : {}),
      logger: QUIET_LOGGER,
      compactionDelegate: async (params: CompactParams): Promise<CompactResult> => {
        this.delegatedSessions.add(params.sessionId);
        return {
          ok: true,
          compacted: false,
          reason: 'doctor probe: compaction was delegated to the runtime (not run)',
        };
      },
      llm: {
        complete: async () => ({
          text: 'Doctor smoke summary.',
          provider: 'contextscope-doctor',
          model: 'none',
          usage: {},
        }),
      },
    };
  }

  private async load(plugin: DiscoveredPlugin, registrationMode: 'full' | 'discovery'): Promise<LoadedPlugin> {
    const loaded = await loadPlugin(plugin, { ...this.loadOptions, registrationMode });
    this.toClose.push(loaded);
    return loaded;
  }

  /** A full load (kept for the drive), then a discovery load to compare what each registers. */
  async loadPlugin(plugin: DiscoveredPlugin): Promise<void> {
    if (plugin.errors.length + plugin.configErrors.length > 0 || plugin.entries.length === 0) return;
    const loaded = await this.load(plugin, 'full');
    this.loadedFull.set(plugin.id, loaded);
    this.loadOutcome.set(plugin.id, {
      status: loaded.status,
      statusMessage: loaded.statusMessage,
      registered: loaded.registrations !== undefined,
    });
    if (loaded.status === 'not-executed') {
      this.add(notExecutedFinding(plugin, loaded));
      return;
    }
    this.executed = true;
    for (const f of loadFindings(plugin, loaded, this.sdkExportsReported.get(plugin.id))) this.add(f);
    for (const f of hookFindings(plugin, loaded, this.config)) this.add(f);
    if (!loaded.registrations) return;
    const discovery = await this.load(plugin, 'discovery');
    const discoveryIds = registeredEngineIds(discovery.registrations);
    this.discoveryEngines.set(plugin.id, discoveryIds);
    await discovery.close();
    const fullIds = registeredEngineIds(loaded.registrations);
    for (const f of registrationModeFindings(plugin, loaded, fullIds, discoveryIds)) this.add(f);
  }

  /** Whether driveEngines drives this plugin's engines (its full load registered). */
  drives(pluginId: string): boolean {
    return this.loadedFull.get(pluginId)?.registrations !== undefined;
  }

  /** The report's entry for a plugin, from what the run knows of it so far. */
  report(plugin: DiscoveredPlugin): DoctorPluginReport {
    const id = plugin.id;
    return pluginReport(plugin, this.loadedFull.get(id), this.loadOutcome.get(id), this.discoveryEngines.get(id));
  }

  /** Every engine of every full load: the smoke turn, then (unless that quarantined it) the compact probe. */
  async driveEngines(progress: Pick<ProgressTeller, 'driving' | 'checked'>): Promise<void> {
    for (const [pluginId, loaded] of this.loadedFull) {
      if (!loaded.registrations) continue;
      const engineIds = [...loaded.engineIds];
      for (const [i, engineId] of engineIds.entries()) {
        progress.driving(pluginId, { id: engineId, index: i + 1, count: engineIds.length });
        await this.driveEngine(loaded, { pluginId, engineId });
      }
      progress.checked(pluginId);
    }
  }

  private async driveEngine(loaded: LoadedPlugin, ref: EngineRef): Promise<void> {
    const { runtime, config, workDir, add } = this;
    if (!loaded.host?.running) await loaded.reload();
    const stopReasonBefore = loaded.host?.stopReason;
    const before = this.watch.quarantines.length;
    const workspaceDir = this.options.workspaceDir;
    await smokeDrive({ runtime, config, ref, workDir, n: ++this.sessions, add, workspaceDir });
    // a call that passed its deadline leaves a liveness probe running: wait for its verdict before moving on
    await loaded.checkResponsive();
    const host = loaded.host;
    const stoppedDuring = host && !host.running && host.stopReason !== stopReasonBefore ? host.stopReason : undefined;
    if (stoppedDuring) {
      add(hostStoppedFinding(ref, stoppedDuring));
      await loaded.reload();
    }
    const quarantinedNow = this.watch.quarantines.slice(before).some((q) => q.engineId === ref.engineId);
    if (!quarantinedNow && loaded.host?.running) {
      const delegatedSessions = this.delegatedSessions;
      await compactProbe({ runtime, config, ref, workDir, n: ++this.sessions, delegatedSessions, add });
      if (!(await loaded.checkResponsive())) await loaded.reload();
    }
  }

  async close(): Promise<void> {
    this.watch.stop();
    for (const loaded of this.toClose) await settle(loaded.close());
    rmSync(this.workDir, { recursive: true, force: true });
  }
}

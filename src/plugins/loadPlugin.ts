/**
 * Whole on purpose (about 550 lines with its doc comments): the LoadedPlugin class owns one engine host's lifecycle; its steps are named methods.
 *
 * Loads one discovered plugin into its own engine host and registers its engines into a ContextRuntime as
 * ordinary async ContextEngine factories (through `runtime.createPluginApi(pluginId).api.registerContextEngine`,
 * so OpenClaw's registration diagnostics apply). Nothing runs without consent or with manifest/config errors.
 * One LoadedPlugin = one host process = one set of lane folders; a stopped host is restarted only by reload().
 */
import type {
  CompactParams,
  CompactResult,
  Logger,
  LlmCompleteParams,
  LlmCompleteResult,
  OpenClawConfig,
} from '../contract';
import { delegateCompactionToRuntime, type DelegateCompactionDeps } from '../engines/legacy';
import type { ContextRuntime, PluginRegistrationMode } from '../runtime';
import type { PluginConsent } from './consent';
import { decideConsent } from './consentGate';
import { EngineHost, type EngineHostOptions, type PluginLogEntry } from './host/engineHost';
import { EngineHostError } from './host/engineHostError';
import { resolveEngineHostEntry, type EngineHostEntry } from './host/hostEntry';
import type { AccessDenial } from './host/accessDenied';
import { describeHostGrants, missingHostGrants, unionHostGrants, type HostGrants } from './host/hostPermissions';
import { planPluginSandbox, type PluginSandboxInfo } from './pluginSandbox';

export type { PluginSandboxInfo };
import {
  buildPluginEnv,
  prepareLaneDirs,
  resolveEngineNodePath,
  type LaneDirs,
  type PreparedLaneDirs,
} from './host/laneEnvironment';
import { RegisterReport, describeProtocolViolation, type RegisterRequest } from './host/protocol';
import { createRemoteFactory, deadlineFor, resolveDeadlines, type EngineDeadlines } from './host/remoteEngine';
import type { EngineHostTransportFactory } from './host/transport';
import type { HostCodecName } from './host/channelCodec';
import { isPluginLoadable, type DiscoveredPlugin, type PluginManifest, type PluginProblem } from './types';
import { errorMessage } from '../common/errorText';
import { describeEntryError } from './describeEntryError';
import { requestHooks, type HookInvocation, type RunHooksReply } from './pluginHooks';

export { describeEntryError };

/** The part of ContextRuntime the loader uses. */
export type PluginRuntimeTarget = Pick<ContextRuntime, 'createPluginApi'>;

export interface LoadPluginOptions {
  runtime: PluginRuntimeTarget;
  /** the root OpenClaw config plugins see as api.config / runtime.config.current() */
  config?: OpenClawConfig;
  consent: PluginConsent;
  /**
   * runs the SDK's delegateCompactionToRuntime in the app; default: the built-in compaction
   * (delegateCompactionToRuntime of src/engines/legacy with the `compaction` deps)
   */
  compactionDelegate?: (params: CompactParams) => Promise<CompactResult>;
  /** deps for the default compactionDelegate: transcript resolver, summarizer, settings */
  compaction?: DelegateCompactionDeps;
  /** backs api.runtime.llm.complete (a Summarizer fits) */
  llm?: { complete(params: LlmCompleteParams): Promise<LlmCompleteResult> };
  deadlines?: Partial<EngineDeadlines>;
  /** Node binary for the engine host (default: CONTEXTSCOPE_ENGINE_NODE, else this process's Node) */
  nodePath?: string;
  /** real folders for this lane; missing ones are temporary and removed on close() */
  laneDirs?: Partial<LaneDirs>;
  /** extra environment variables passed to the plugin (beyond the allow-list) */
  env?: Record<string, string>;
  /** default "full" */
  registrationMode?: PluginRegistrationMode;
  /** what the SDK's buildMemorySystemPromptAddition returns (empty → undefined) */
  memoryPromptSection?: string;
  /** folder for transpiled TypeScript entries (default: transpileCacheDir(); false: no file cache) */
  transpileCacheDir?: string | false;
  /** how the host process is started (default child_process.fork) */
  transport?: EngineHostTransportFactory;
  hostEntry?: Partial<EngineHostEntry>;
  /** silence allowed after a deadline before a host is killed (default 1000 ms) */
  unresponsiveGraceMs?: number;
  /** the largest message taken from the host (default 64 MiB) and its heap cap in MiB (default 2048); hostLimits.ts */
  limits?: { maxMessageBytes?: number; maxHeapMb?: number };
  /** how values cross the engine-host channel (host/channelCodec.ts; default: CONTEXTSCOPE_HOST_CODEC, else refs) */
  hostCodec?: HostCodecName;
  /**
   * grants this load asks for (a lane's `allow=`): given when the consent grants them or grants as asked
   * (--allow-execute); else the plugin is not executed and the status says which grant is missing
   */
  grants?: HostGrants;
  /**
   * Node's permission model for the engine host (host/hostPermissions.ts): further paths it may read (a replay's
   * lane transcripts) or write; `false` runs it unconfined (tests comparing the two)
   */
  sandbox?: false | { read?: string[]; write?: string[] };
  /** the permission model refused the plugin something (also kept in `accessDenials`) */
  onAccessDenied?(denial: AccessDenial): void;
  logger?: Logger;
  onLog?(entry: PluginLogEntry): void;
  /** log entries kept per plugin (default 2000) */
  maxLogEntries?: number;
}

export type LoadedPluginStatus = 'running' | 'not-executed' | 'invalid' | 'load-failed' | 'stopped' | 'closed';

export interface PluginLoadDiagnostic {
  level: 'error' | 'warn' | 'info';
  message: string;
  pluginId: string;
}

export interface LoadedPlugin {
  readonly id: string;
  readonly plugin: DiscoveredPlugin;
  readonly manifest: PluginManifest | undefined;
  readonly status: LoadedPluginStatus;
  /** a sentence for a person explaining the status */
  readonly statusMessage: string;
  /** engine ids registered into the runtime by this load */
  readonly engineIds: string[];
  /** everything register(api) registered (engines, tools, commands, hooks, no-op stubs), per entry */
  readonly registrations: RegisterReport | undefined;
  /** registration diagnostics (OpenClaw's, from the runtime) and loader notes */
  readonly diagnostics: PluginLoadDiagnostic[];
  /** why the plugin is not (fully) running: manifest/config problems, consent, load errors */
  readonly errors: PluginProblem[];
  /** plugin logger output, console output and host notes, oldest first */
  readonly logs: PluginLogEntry[];
  readonly host:
    { pid: number | undefined; node: string | undefined; running: boolean; stopReason: string | undefined } | undefined;
  readonly laneDirs: LaneDirs | undefined;
  /**
   * How the current engine host is confined: under Node's permission model (`confined`, with what it may read and
   * write and what was granted) or not (`reason` says why); undefined before a host started
   */
  readonly sandbox: PluginSandboxInfo | undefined;
  /** what the permission model refused the plugin, oldest first (at most 500) */
  readonly accessDenials: AccessDenial[];
  /** Resolves with the stop reason once the current host process has stopped. */
  whenHostStopped(): Promise<string>;
  /**
   * Pings the host (waiting for a liveness probe already running after a deadline): true when it answers; a host
   * that stays silent past the grace period is killed and this resolves false.
   */
  checkResponsive(): Promise<boolean>;
  /** Runs hook points in the engine host, in order (handlers registered with api.on); see pluginHooks.ts. */
  runHooks(invocations: readonly HookInvocation[]): Promise<RunHooksReply>;
  /** Restarts the host (re-checking consent) and registers again. */
  reload(): Promise<void>;
  /** Stops the host and removes temporary lane folders. */
  close(): Promise<void>;
}

class PluginLoad implements LoadedPlugin {
  readonly id: string;
  readonly plugin: DiscoveredPlugin;
  status: LoadedPluginStatus = 'not-executed';
  statusMessage = '';
  engineIds: string[] = [];
  registrations: RegisterReport | undefined;
  diagnostics: PluginLoadDiagnostic[] = [];
  errors: PluginProblem[] = [];
  logs: PluginLogEntry[] = [];
  accessDenials: AccessDenial[] = [];
  sandbox: PluginSandboxInfo | undefined;
  private current: EngineHost | undefined;
  /** bumped per start(); a factory only talks to the host of the generation that registered it */
  private generation = 0;
  private lane: PreparedLaneDirs | undefined;
  /** the files consent covers (real path → sha256): the only modules the engine host may load */
  private covered: Record<string, string> = {};
  /** the consent's package hash and the link targets out of the package it covers */
  private consentHash = '';
  private linkedTargets: string[] = [];
  /** child processes / worker threads this host gets */
  private grants: HostGrants = {};
  /** the transpile-cache folder of this host's register request (per plugin content when confined) */
  private transpileDir: string | false | undefined;
  private readonly options: LoadPluginOptions;
  private readonly deadlines: EngineDeadlines;

  constructor(plugin: DiscoveredPlugin, options: LoadPluginOptions) {
    this.plugin = plugin;
    this.id = plugin.id;
    this.options = options;
    this.deadlines = resolveDeadlines(options.deadlines);
  }

  get manifest(): PluginManifest | undefined {
    return this.plugin.manifest;
  }

  get host(): LoadedPlugin['host'] {
    const h = this.current;
    return h ? { pid: h.pid, node: h.node, running: h.running, stopReason: h.stopReason } : undefined;
  }

  get laneDirs(): LaneDirs | undefined {
    return this.lane?.dirs;
  }

  whenHostStopped(): Promise<string> {
    const h = this.current;
    if (!h) return Promise.resolve(this.statusMessage);
    return new Promise((resolve) => h.onStop(resolve));
  }

  checkResponsive(): Promise<boolean> {
    return this.current ? this.current.probe() : Promise.resolve(false);
  }

  private log(entry: PluginLogEntry): void {
    this.logs.push(entry);
    const max = this.options.maxLogEntries ?? 2000;
    if (this.logs.length > max) this.logs.splice(0, this.logs.length - max);
    this.options.onLog?.(entry);
  }

  /** One load: the checks that may refuse it, the host process, register(api), then the engines it registered. */
  async start(): Promise<void> {
    this.errors = [];
    this.diagnostics = [];
    this.engineIds = [];
    this.registrations = undefined;
    if (this.refuseInvalid() || !(await this.checkConsent())) return;
    this.noteDisabled();
    this.generation++;
    const host = await this.startHost();
    if (!host) return;
    const mode = this.options.registrationMode ?? 'full';
    const report = await this.register(host, this.registerRequest(host, mode));
    if (!report) return;
    this.registrations = report;
    this.recordEntries(report);
    this.registerEngines(report, mode);
    await this.settleStatus(host, report);
  }

  /** Manifest, entry or config problems: nothing runs (status "invalid"). */
  private refuseInvalid(): boolean {
    const plugin = this.plugin;
    if (isPluginLoadable(plugin)) return false;
    this.errors.push(...plugin.errors, ...plugin.configErrors);
    this.status = 'invalid';
    const count = plugin.errors.length + plugin.configErrors.length;
    this.statusMessage = `not executed: ${count} problem${count === 1 ? '' : 's'} in the plugin's manifest, entries or config (${plugin.rootDir})`;
    return true;
  }

  /** True when the user consented to running this plugin (its covered files kept); else status "not-executed". */
  private async checkConsent(): Promise<boolean> {
    const decision = await decideConsent(this.plugin, this.options.consent);
    if (decision.granted) {
      const wanted = this.options.grants;
      const missing = decision.grantsAsRequested ? [] : missingHostGrants(wanted, decision.grants);
      if (missing.length > 0) return this.refuseGrants(missing);
      this.covered = decision.snapshot.files;
      this.consentHash = decision.snapshot.hash;
      this.linkedTargets = decision.snapshot.linkedTargets ?? [];
      this.grants = unionHostGrants(decision.grants, decision.grantsAsRequested ? wanted : undefined);
      return true;
    }
    this.status = 'not-executed';
    this.statusMessage = decision.reason;
    this.errors.push({
      code: 'no-consent',
      message: decision.reason,
      file: this.plugin.realPath,
      fix: 'run with --allow-execute or approve the plugin in the app',
    });
    return false;
  }

  /** The load asks for grants its consent does not give: nothing runs (status "not-executed"). */
  private refuseGrants(missing: string[]): false {
    const what = describeHostGrants({
      childProcess: missing.includes('child-process'),
      worker: missing.includes('worker'),
    });
    this.status = 'not-executed';
    this.statusMessage = `not executed: the lane asks for ${what} (allow=${missing.join(',')}), which the consent for ${this.plugin.realPath} does not grant; approve the plugin with ${what} in the app or run with --allow-execute`;
    this.errors.push({
      code: 'grant-missing',
      message: this.statusMessage,
      file: this.plugin.realPath,
      fix: `approve the plugin with ${what} allowed, run with --allow-execute, or drop allow= from the lane`,
    });
    return false;
  }

  private noteDisabled(): void {
    const plugin = this.plugin;
    if (plugin.enabled) return;
    this.diagnostics.push({
      level: 'warn',
      pluginId: plugin.id,
      message: `plugin is disabled in config (${plugin.disabledReason ?? 'disabled'}); loaded anyway because it was requested explicitly`,
    });
  }

  /** The engine host process in this load's lane folders, or undefined (status "load-failed") when it did not start. */
  private async startHost(): Promise<EngineHost | undefined> {
    const plugin = this.plugin;
    this.lane ??= prepareLaneDirs(this.options.laneDirs);
    let host: EngineHost;
    try {
      host = await EngineHost.start(this.hostOptions(this.lane.dirs));
      this.noteConfinement(host);
    } catch (error) {
      this.status = 'load-failed';
      this.statusMessage = errorMessage(error);
      this.errors.push({
        code: 'host-start-failed',
        message: this.statusMessage,
        file: plugin.rootDir,
        fix: 'check the engine-host Node binary (nodePath / CONTEXTSCOPE_ENGINE_NODE) and the app installation',
      });
      return undefined;
    }
    this.current = host;
    host.onStop((reason) => {
      if (this.current !== host || this.status !== 'running') return;
      this.status = 'stopped';
      this.statusMessage = `engine host ${reason}; engines of this plugin fail until reload()`;
    });
    return host;
  }

  /** Node's permission-model flags for this host and its transpile-cache folder (pluginSandbox.ts). */
  private planSandbox(entry: EngineHostEntry, nodePath: string, dirs: LaneDirs): string[] | undefined {
    const planned = planPluginSandbox({
      entry,
      nodePath,
      dirs,
      plugin: this.plugin,
      contentHash: this.consentHash,
      linkedTargets: this.linkedTargets,
      grants: this.grants,
      sandbox: this.options.sandbox,
      transpileCacheDir: this.options.transpileCacheDir,
    });
    this.sandbox = planned.info;
    this.transpileDir = planned.transpileDir;
    return planned.argv;
  }

  /** After the host said it is ready: whether the permission model is on in it, and why not when it is not. */
  private noteConfinement(host: EngineHost): void {
    if (!this.sandbox?.confined || host.confined) return;
    const reason =
      host.transportUnconfinedReason ??
      `the engine host (${host.node ?? 'node'}) did not report Node's permission model as on`;
    this.sandbox = { ...this.sandbox, confined: false, reason, read: [], write: [] };
  }

  private recordDenial(denial: AccessDenial): void {
    if (this.accessDenials.length < 500) this.accessDenials.push(denial);
    this.options.onAccessDenied?.(denial);
  }

  private hostOptions(dirs: LaneDirs): EngineHostOptions {
    const plugin = this.plugin;
    const entry = resolveEngineHostEntry(this.options.hostEntry);
    const nodePath = resolveEngineNodePath(this.options.nodePath);
    const argv = this.planSandbox(entry, nodePath, dirs);
    return {
      label: `plugin "${plugin.id}"`,
      env: buildPluginEnv({ dirs, ...(this.options.env ? { extra: this.options.env } : {}) }),
      cwd: dirs.cwd,
      nodePath,
      entry,
      ...(argv ? { permissionArgv: argv } : {}),
      onAccessDenied: (denial) => this.recordDenial(denial),
      ...(this.options.transport ? { transport: this.options.transport } : {}),
      startDeadlineMs: this.deadlines.startMs,
      unresponsiveGraceMs: this.options.unresponsiveGraceMs ?? 1000,
      ...this.options.limits,
      ...(this.options.hostCodec ? { codec: this.options.hostCodec } : {}),
      callbackDeadlineMs: this.deadlines.defaultMs,
      callbacks: {
        ...(this.options.llm ? { llmComplete: (params: LlmCompleteParams) => this.options.llm!.complete(params) } : {}),
        delegateCompaction:
          this.options.compactionDelegate ??
          ((params: CompactParams) => delegateCompactionToRuntime(params, this.options.compaction ?? {})),
      },
      onLog: (entry) => this.log({ ...entry, pluginId: entry.pluginId ?? plugin.id }),
      onProtocolError: (problem) =>
        this.diagnostics.push({
          level: 'error',
          pluginId: plugin.id,
          message: `engine host sent an invalid message (ignored): ${problem}`,
        }),
    };
  }

  private registerRequest(host: EngineHost, mode: PluginRegistrationMode): RegisterRequest {
    const plugin = this.plugin;
    const request: RegisterRequest = {
      pluginRoot: plugin.rootDir,
      entries: plugin.entries.map((e) => ({ file: e.file, format: e.format, pluginId: e.pluginId })),
      registrationMode: mode,
      ...(plugin.name !== undefined ? { pluginName: plugin.name } : {}),
      ...(plugin.description !== undefined ? { pluginDescription: plugin.description } : {}),
      ...(plugin.version !== undefined ? { pluginVersion: plugin.version } : {}),
      config: this.options.config ?? {},
      pluginConfig: plugin.config,
      sdk:
        this.options.memoryPromptSection !== undefined ? { memoryPromptSection: this.options.memoryPromptSection } : {},
      shimDir: host.entry.shimDir,
      covered: this.covered,
      llmAvailable: this.options.llm !== undefined,
    };
    if (this.transpileDir) request.transpileCacheDir = this.transpileDir;
    return request;
  }

  /** Runs register(api) in the host; undefined (status "load-failed", host killed) when it did not complete. */
  private async register(host: EngineHost, request: RegisterRequest): Promise<RegisterReport | undefined> {
    try {
      const reply = await host.request('register', [request], {
        deadlineMs: deadlineFor(this.deadlines, 'register'),
        operation: 'register',
      });
      const problem = describeProtocolViolation(RegisterReport, reply);
      if (problem) throw new Error(`engine host sent an invalid register report: ${problem}`);
      return reply as RegisterReport;
    } catch (error) {
      const reason = errorMessage(error);
      this.status = 'load-failed';
      this.statusMessage = `loading the plugin failed: ${reason}`;
      this.errors.push({
        code: 'register-failed',
        message: `loading the entry and running register(api) did not complete: ${reason}`,
        file: this.plugin.entries[0]?.file ?? this.plugin.rootDir,
        fix: 'register(api) must return promptly; check the plugin logs for what it was doing',
      });
      if (host.running) host.kill(`killed after register failed (${reason})`);
      return undefined;
    }
  }

  /** Each entry's load error (with its stack in the logs) and a note when register(api) returned a promise. */
  private recordEntries(report: RegisterReport): void {
    for (const entry of report.entries) {
      if (entry.error)
        this.errors.push(describeEntryError(entry.file, this.plugin.rootDir, entry.error, this.current?.node));
      if (entry.error?.stack)
        this.log({ level: 'error', message: entry.error.stack, pluginId: entry.pluginId, at: Date.now() });
      if (entry.asyncRegister) {
        this.diagnostics.push({
          level: 'warn',
          pluginId: entry.pluginId,
          message:
            'register(api) returned a promise; OpenClaw does not await plugin registration, so registrations made after an await may be missing there',
        });
      }
    }
  }

  /** "running" when an entry loaded (the host may have stopped meanwhile), else "load-failed" and the host closed. */
  private async settleStatus(host: EngineHost, report: RegisterReport): Promise<void> {
    if (report.entries.some((e) => e.loaded)) {
      this.status = host.running ? 'running' : 'stopped';
      this.statusMessage = host.running
        ? `running in engine host pid ${host.pid ?? '?'} (${host.node ?? 'node'}); engines: ${this.engineIds.join(', ') || 'none'}`
        : `engine host ${host.stopReason ?? 'stopped'}`;
    } else {
      this.status = 'load-failed';
      this.statusMessage = `no entry of ${this.plugin.id} loaded: ${this.errors.map((e) => e.message).join('; ')}`;
      await host.close();
    }
  }

  private registerEngines(report: RegisterReport, mode: PluginRegistrationMode): void {
    const byPlugin = new Map<string, RegisterReport['engines']>();
    for (const entry of report.entries) if (!byPlugin.has(entry.pluginId)) byPlugin.set(entry.pluginId, []);
    for (const reg of report.engines) {
      const list = byPlugin.get(reg.pluginId) ?? [];
      list.push(reg);
      byPlugin.set(reg.pluginId, list);
    }
    for (const [pluginId, regs] of byPlugin) {
      if (regs.length === 0) continue;
      const handle = this.options.runtime.createPluginApi(pluginId, {
        registrationMode: mode,
        config: this.options.config ?? {},
        pluginConfig: this.plugin.config,
        ...(this.options.logger ? { logger: this.options.logger } : {}),
        ...(this.plugin.name !== undefined ? { name: this.plugin.name } : {}),
        source: this.plugin.entries.find((e) => e.pluginId === pluginId)?.file ?? this.plugin.rootDir,
      });
      const generation = this.generation;
      for (const reg of regs) {
        const factory = reg.factoryIsFunction
          ? createRemoteFactory(() => this.hostFor(generation, String(reg.id)), reg.seq, this.deadlines)
          : undefined;
        // raw values go through unchanged so the runtime reports exactly what OpenClaw would
        handle.api.registerContextEngine(reg.id as string, factory as never);
      }
      for (const d of handle.diagnostics) this.diagnostics.push({ level: d.level, message: d.message, pluginId });
      for (const id of handle.contextEngineIds) if (!this.engineIds.includes(id)) this.engineIds.push(id);
    }
  }

  private hostFor(generation: number, engineId: string): EngineHost {
    if (generation !== this.generation) {
      throw new EngineHostError(
        'not-running',
        `engine "${engineId}" is no longer provided by plugin "${this.id}" (it was not registered again after reload)`,
        'factory',
      );
    }
    const host = this.current;
    if (!host)
      throw new EngineHostError(
        'not-running',
        `plugin "${this.id}" has no engine host (${this.statusMessage})`,
        'factory',
      );
    return host;
  }

  runHooks(invocations: readonly HookInvocation[]): Promise<RunHooksReply> {
    return requestHooks(this.hostFor(this.generation, 'hooks'), invocations, this.deadlines.defaultMs);
  }

  async reload(): Promise<void> {
    if (this.status === 'closed') throw new Error(`plugin "${this.id}" was closed; load it again with loadPlugin()`);
    const previous = this.current;
    this.current = undefined;
    if (previous) await previous.close();
    await this.start();
  }

  async close(): Promise<void> {
    this.status = 'closed';
    this.statusMessage = 'closed';
    const host = this.current;
    if (host) await host.close();
    this.lane?.cleanup();
    this.lane = undefined;
  }
}

export async function loadPlugin(plugin: DiscoveredPlugin, options: LoadPluginOptions): Promise<LoadedPlugin> {
  const load = new PluginLoad(plugin, options);
  await load.start();
  return load;
}

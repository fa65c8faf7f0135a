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
import type { CompactParams, CompactResult, ContextEngine, OpenClawConfig } from '../contract';
import { createContextRuntime } from '../engines';
import {
  wrapContextEngineCompat,
  evaluateContextEngineHostSupport,
  formatContextEngineHostUnsupportedMessage,
  OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
  type ContextRuntime,
  type RuntimeEvent,
} from '../runtime';
import { estimateMessagesTokens } from '../tokens';
import { allowExecuteConsent, createConsentStore, type PluginConsent } from './consent';
import { discoverPlugins, findStaleConfigEntries } from './discoverPlugins';
import { checkAssembleResult, checkCompactProbe, checkLifecycleResult, type EngineRef } from './doctorChecks';
import { smokeMessages, smokeReply, writeSmokeTranscript } from './doctorSmokeConversation';
import type {
  DoctorFinding,
  DoctorPluginReport,
  DoctorPluginStatus,
  DoctorQuarantine,
  DoctorReport,
  FindingSeverity,
} from './doctorTypes';
import type { EngineHostEntry } from './host/hostEntry';
import type { EngineDeadlines } from './host/remoteEngine';
import type { EngineHostTransportFactory } from './host/transport';
import { loadPlugin, type LoadedPlugin } from './loadPlugin';
import { formatProblem, type DiscoveredPlugin, type PluginProblem } from './types';
import { errorMessage } from '../common/errorText';

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
}

const QUIET_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };
const SEVERITY_ORDER: Record<FindingSeverity, number> = { error: 0, warn: 1, info: 2 };
const LOAD_ERROR_CODES = new Set([
  'entry-import-failed',
  'register-threw',
  'entry-no-register',
  'register-failed',
  'host-start-failed',
]);
const SMOKE_PROMPT = 'What are the open questions?';
const SMOKE_TOKEN_BUDGET = 100_000;

function problemFinding(plugin: DiscoveredPlugin, problem: PluginProblem, severity: FindingSeverity): DoctorFinding {
  return {
    severity,
    code: problem.code,
    where: { pluginId: plugin.id, file: problem.file ?? plugin.rootDir },
    message: problem.message,
    fix: problem.fix ?? 'see the message',
  };
}

function withSlot(config: OpenClawConfig, engineId: string): OpenClawConfig {
  return { ...config, plugins: { ...config.plugins, slots: { ...config.plugins?.slots, contextEngine: engineId } } };
}

function ownerPluginId(owner: string | undefined): string | undefined {
  return owner?.startsWith('plugin:') ? owner.slice('plugin:'.length) : undefined;
}

function quarantineFix(reason: string, operation: string): string {
  if (/^timeout after \d+ ms$/.test(reason)) {
    return `${operation}() did not settle before its deadline: make it return promptly and honour abort signals (a longer deadline: --timeout <ms>)`;
  }
  if (reason.startsWith('engine host exited') || reason.includes('(exited with code')) {
    return 'the engine ended its process (process.exit or a fatal error); an engine must never exit the host process';
  }
  if (reason.includes('killed after timeout'))
    return 'the engine blocked its process (a synchronous loop?) and was killed; never block the event loop';
  if (reason.startsWith('engine host crashed'))
    return 'an exception escaped the engine (an unhandled rejection or a throw in a callback); catch it inside the engine';
  if (operation === 'contract-validation')
    return 'return an object with info.id, info.name, ingest(), assemble() and compact() from the factory';
  if (operation === 'factory')
    return 'the factory threw: make it succeed with the config it receives (ctx.config is the root OpenClaw config)';
  return `fix the error ${operation}() threw (the plugin logs have the stack)`;
}

/** The report status from the load outcome (taken right after loading, before the doctor closes the host). */
function statusOf(
  loaded: { status: LoadedPlugin['status']; registered: boolean } | undefined,
  plugin: DiscoveredPlugin,
): DoctorPluginStatus {
  if (!loaded) return plugin.errors.length + plugin.configErrors.length > 0 ? 'invalid' : 'not-executed';
  switch (loaded.status) {
    case 'running':
    case 'stopped':
    case 'closed':
      return loaded.registered ? 'executed' : 'load-failed';
    default:
      return loaded.status;
  }
}

function uniqueStrings(values: (string | null)[]): string[] {
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length > 0))];
}

function isUnder(path: string, roots: string[]): boolean {
  return roots.some((root) => path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`));
}

async function settle<T>(promise: Promise<T> | T): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

export async function runDoctor(options: RunDoctorOptions = {}): Promise<DoctorReport> {
  const config = options.config ?? {};
  const findings: DoctorFinding[] = [];
  const add = (finding: DoctorFinding) => findings.push(finding);

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

  for (const stale of findStaleConfigEntries(config, discovered)) {
    add({
      severity: 'warn',
      code: 'stale-config-entry',
      where: { file: stale.key },
      message: `stale config entry ignored: ${stale.key} names "${stale.id}", but no plugin with that id was found`,
      fix: `remove "${stale.id}" from ${stale.key}, or install/link the plugin it refers to`,
    });
  }
  for (const plugin of selected) {
    for (const problem of plugin.errors) add(problemFinding(plugin, problem, 'error'));
    for (const problem of plugin.configErrors) add(problemFinding(plugin, problem, 'error'));
    for (const problem of plugin.warnings) add(problemFinding(plugin, problem, 'warn'));
    if (!plugin.enabled) {
      add({
        severity: 'info',
        code: 'plugin-disabled',
        where: { pluginId: plugin.id, file: plugin.rootDir },
        message: `plugin is disabled: ${plugin.disabledReason ?? 'disabled'} (the doctor examines it anyway)`,
        fix: `enable it with plugins.entries.${plugin.id}.enabled: true if you mean to use it`,
      });
    }
  }

  const consent = options.allowExecute ? allowExecuteConsent() : (options.consent ?? createConsentStore());
  const runtime = options.createRuntime?.() ?? createContextRuntime({ logger: QUIET_LOGGER });
  const quarantines: DoctorQuarantine[] = [];
  const runtimeWarnings: string[] = [];
  const unsubscribe = runtime.subscribe((event: RuntimeEvent) => {
    if (event.type === 'quarantine') {
      quarantines.push({
        engineId: event.engineId,
        ...(event.owner !== undefined ? { owner: event.owner } : {}),
        operation: event.operation,
        reason: event.reason,
        failedAt: event.failedAt,
      });
    } else if (event.level === 'warn') runtimeWarnings.push(event.message);
  });
  const delegatedSessions = new Set<string>();
  const workDir = mkdtempSync(join(tmpdir(), 'contextscope-doctor-'));
  const deadlines: Partial<EngineDeadlines> = { defaultMs: 10_000, compactMs: 30_000, ...options.deadlines };
  const loadOptions = {
    runtime,
    config,
    consent,
    deadlines,
    ...(options.nodePath ? { nodePath: options.nodePath } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.unresponsiveGraceMs !== undefined ? { unresponsiveGraceMs: options.unresponsiveGraceMs } : {}),
    ...(options.hostEntry ? { hostEntry: options.hostEntry } : {}),
    ...(options.transport ? { transport: options.transport } : {}),
    logger: QUIET_LOGGER,
    compactionDelegate: async (params: CompactParams): Promise<CompactResult> => {
      delegatedSessions.add(params.sessionId);
      return { ok: true, compacted: false, reason: 'doctor probe: compaction was delegated to the runtime (not run)' };
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

  const loadedFull = new Map<string, LoadedPlugin>();
  const loadOutcome = new Map<string, { status: LoadedPlugin['status']; statusMessage: string; registered: boolean }>();
  const discoveryEngines = new Map<string, string[]>();
  const toClose: LoadedPlugin[] = [];
  let executed = false;
  const slot =
    typeof config.plugins?.slots?.contextEngine === 'string' ? config.plugins.slots.contextEngine.trim() || null : null;

  try {
    for (const plugin of selected) {
      if (plugin.errors.length + plugin.configErrors.length > 0 || plugin.entries.length === 0) continue;
      const loaded = await loadPlugin(plugin, { ...loadOptions, registrationMode: 'full' });
      loadedFull.set(plugin.id, loaded);
      loadOutcome.set(plugin.id, {
        status: loaded.status,
        statusMessage: loaded.statusMessage,
        registered: loaded.registrations !== undefined,
      });
      toClose.push(loaded);
      if (loaded.status === 'not-executed') {
        add({
          severity: 'info',
          code: 'not-executed',
          where: { pluginId: plugin.id, file: plugin.realPath },
          message: loaded.statusMessage,
          fix: 'run contextscope doctor --allow-execute (or approve the plugin in the app) to load it and check its engines',
        });
        continue;
      }
      executed = true;
      for (const problem of loaded.errors) {
        add({
          severity: 'error',
          code: LOAD_ERROR_CODES.has(problem.code) ? 'load-error' : problem.code,
          where: { pluginId: plugin.id, file: problem.file ?? plugin.rootDir },
          message: `load error: ${problem.message}`,
          fix: problem.fix ?? 'see the plugin logs',
        });
      }
      for (const d of loaded.diagnostics) {
        add({
          severity: d.level,
          code: 'registration-diagnostic',
          where: { pluginId: d.pluginId, file: plugin.entries[0]?.file ?? plugin.rootDir },
          message: d.message,
          fix: 'fix the registerContextEngine(id, factory) call in the plugin (OpenClaw reports the same diagnostic)',
        });
      }
      if (!loaded.registrations) continue;
      const discovery = await loadPlugin(plugin, { ...loadOptions, registrationMode: 'discovery' });
      toClose.push(discovery);
      const discoveryIds = uniqueStrings(
        (discovery.registrations?.engines ?? []).map((e) => (typeof e.id === 'string' ? e.id.trim() : null)),
      );
      discoveryEngines.set(plugin.id, discoveryIds);
      await discovery.close();
      const fullIds = uniqueStrings(
        (loaded.registrations.engines ?? []).map((e) => (typeof e.id === 'string' ? e.id.trim() : null)),
      );
      if (
        plugin.kind.includes('context-engine') &&
        fullIds.length === 0 &&
        discoveryIds.length === 0 &&
        loaded.errors.length === 0
      ) {
        add({
          severity: 'error',
          code: 'no-engine-registered',
          where: { pluginId: plugin.id, file: plugin.entries[0]?.file ?? plugin.rootDir },
          message: 'the plugin declares kind "context-engine" but registers no context engine',
          fix: 'call api.registerContextEngine(id, factory) in register(api)',
        });
      }
      for (const id of discoveryIds.filter((id) => !fullIds.includes(id))) {
        add({
          severity: 'warn',
          code: 'engine-discovery-only',
          where: { pluginId: plugin.id, engineId: id },
          message: `engine "${id}" is registered only in registrationMode "discovery", not in a full load: OpenClaw lists it, but selecting it in plugins.slots.contextEngine quarantines it (resolve: not registered) and runs legacy`,
          fix: 'register the engine in every registrationMode; use the mode only to skip side effects such as starting services',
        });
      }
      for (const id of fullIds.filter((id) => !discoveryIds.includes(id))) {
        add({
          severity: 'info',
          code: 'engine-full-only',
          where: { pluginId: plugin.id, engineId: id },
          message: `engine "${id}" is registered only in a full load: OpenClaw's discovery passes (status, doctor listings) do not see it`,
          fix: 'register context engines in every registrationMode; skip only side effects in discovery modes',
        });
      }
    }

    // the slot, resolved the way a run would (after every plugin registered)
    const registeredIds = new Set(runtime.listContextEngineIds());
    if (slot && slot !== 'legacy') {
      if (executed && (focusRoots.length === 0 || registeredIds.has(slot))) {
        const before = quarantines.length;
        const warningsBefore = runtimeWarnings.length;
        const resolved = await settle(
          runtime.resolveContextEngine(config, options.workspaceDir ? { workspaceDir: options.workspaceDir } : {}),
        );
        const slotQuarantine = quarantines.slice(before).find((q) => q.engineId === slot);
        if (slotQuarantine?.operation === 'resolve') {
          add({
            severity: 'error',
            code: 'slot-unknown-engine',
            where: { engineId: slot, file: 'plugins.slots.contextEngine', operation: 'resolve' },
            message: `plugins.slots.contextEngine names "${slot}", which no plugin registers; OpenClaw quarantines it (resolve: ${slotQuarantine.reason}) and runs legacy`,
            fix: `set plugins.slots.contextEngine to one of: ${['legacy', ...registeredIds].filter((v, i, a) => a.indexOf(v) === i).join(', ')}`,
          });
        }
        if (runtimeWarnings.slice(warningsBefore).some((w) => w.includes('read-only discovery'))) {
          add({
            severity: 'warn',
            code: 'slot-discovery-only',
            where: { engineId: slot, file: 'plugins.slots.contextEngine', operation: 'resolve' },
            message: `plugins.slots.contextEngine names "${slot}", which is registered for read-only discovery only; OpenClaw falls back to legacy without quarantine`,
            fix: 'make the owning plugin register the engine in a full load',
          });
        }
        if (resolved.ok) await settle((resolved.value as ContextEngine).dispose?.());
      } else if (!executed && !discovered.some((p) => p.id === slot)) {
        add({
          severity: 'info',
          code: 'slot-unverified',
          where: { engineId: slot, file: 'plugins.slots.contextEngine' },
          message: `plugins.slots.contextEngine names "${slot}"; which engines exist is only known after running the plugins`,
          fix: 'run contextscope doctor --allow-execute to check that a plugin registers this engine',
        });
      }
    }

    let counter = 0;
    for (const [pluginId, loaded] of loadedFull) {
      if (!loaded.registrations) continue;
      for (const engineId of [...loaded.engineIds]) {
        const ref: EngineRef = { pluginId, engineId };
        if (!loaded.host?.running) await loaded.reload();
        const stopReasonBefore = loaded.host?.stopReason;
        const before = quarantines.length;
        await smokeDrive(runtime, config, ref, workDir, ++counter, add, options.workspaceDir);
        // a call that passed its deadline leaves a liveness probe running: wait for its verdict before moving on
        await loaded.checkResponsive();
        const stoppedDuring =
          loaded.host && !loaded.host.running && loaded.host.stopReason !== stopReasonBefore
            ? loaded.host.stopReason
            : undefined;
        if (stoppedDuring) {
          add({
            severity: 'error',
            code: 'engine-host-stopped',
            where: { pluginId, engineId },
            message: `the engine host stopped while driving "${engineId}": ${stoppedDuring}`,
            fix: quarantineFix(`engine host ${stoppedDuring}`, 'assemble'),
          });
          await loaded.reload();
        }
        const quarantinedNow = quarantines.slice(before).some((q) => q.engineId === engineId);
        if (!quarantinedNow && loaded.host?.running) {
          await compactProbe(runtime, config, ref, workDir, ++counter, delegatedSessions, add);
          if (!(await loaded.checkResponsive())) await loaded.reload();
        }
      }
    }
  } finally {
    unsubscribe();
    for (const loaded of toClose) await settle(loaded.close());
    rmSync(workDir, { recursive: true, force: true });
  }

  for (const q of quarantines) {
    const pluginId = ownerPluginId(q.owner);
    if (q.operation === 'resolve' && q.engineId === slot) continue; // reported as slot-unknown-engine
    add({
      severity: 'error',
      code: 'engine-quarantined',
      where: { ...(pluginId ? { pluginId } : {}), engineId: q.engineId, operation: q.operation },
      message: `engine "${q.engineId}" quarantined during ${q.operation}: ${q.reason}`,
      fix: quarantineFix(q.reason, q.operation),
    });
  }

  const plugins: DoctorPluginReport[] = selected.map((plugin) => {
    const loaded = loadedFull.get(plugin.id);
    const outcome = loadOutcome.get(plugin.id);
    const regs = loaded?.registrations;
    const errors = [
      ...plugin.errors.map(formatProblem),
      ...plugin.configErrors.map(formatProblem),
      ...(loaded?.errors ?? []).filter((e) => e.code !== 'no-consent').map(formatProblem),
    ];
    return {
      id: plugin.id,
      ...(plugin.name !== undefined ? { name: plugin.name } : {}),
      path: plugin.rootDir,
      kind: plugin.kind,
      origin: plugin.origin,
      enabled: plugin.enabled,
      status: statusOf(outcome, plugin),
      statusMessage:
        outcome?.status === 'not-executed' || outcome?.status === 'invalid' || outcome?.status === 'load-failed'
          ? outcome.statusMessage
          : loaded
            ? `executed; engines: ${loaded.engineIds.join(', ') || 'none'}`
            : errors.length > 0
              ? `not executed: ${errors.length} problem(s) in the manifest, entries or config`
              : 'not executed',
      engines: loaded?.engineIds ?? [],
      discoveryEngines: discoveryEngines.get(plugin.id) ?? null,
      tools: uniqueStrings((regs?.tools ?? []).map((t) => t.name)),
      commands: uniqueStrings((regs?.commands ?? []).map((c) => c.name)),
      hooks: uniqueStrings((regs?.hooks ?? []).map((h) => h.event)),
      errors,
    };
  });

  const ordered = findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => SEVERITY_ORDER[a.finding.severity] - SEVERITY_ORDER[b.finding.severity] || a.index - b.index)
    .map((x) => x.finding);
  const count = (severity: FindingSeverity) => ordered.filter((f) => f.severity === severity).length;
  return {
    version: 1,
    ok: count('error') === 0,
    executed,
    summary: { plugins: plugins.length, errors: count('error'), warnings: count('warn'), infos: count('info') },
    config: { path: options.configPath ?? null, contextEngineSlot: slot },
    plugins,
    findings: ordered,
    quarantines,
  };
}

/**
 * One turn in OpenClaw's order (§13), through the runtime so failures quarantine as in a real run:
 * resolve → bootstrap (if present) → assemble → afterTurn | ingestBatch | ingest (the turn's reply) →
 * maintain (if present) → prepareSubagentSpawn + rollback and onSubagentEnded (if present). compact is not called.
 */
async function smokeDrive(
  runtime: ContextRuntime,
  config: OpenClawConfig,
  ref: EngineRef,
  workDir: string,
  n: number,
  add: (f: DoctorFinding) => void,
  workspaceDir?: string,
): Promise<void> {
  const resolved = await settle(
    runtime.resolveContextEngine(withSlot(config, ref.engineId), workspaceDir ? { workspaceDir } : {}),
  );
  if (!resolved.ok) return;
  const engine = resolved.value;
  const quarantined = () => runtime.describeResolvedEngine(engine)?.quarantined === true;
  try {
    if (quarantined()) return;
    const hostArgs = {
      contextEngineInfo: engine.info,
      operation: 'agent-run' as const,
      host: OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
    };
    const support = evaluateContextEngineHostSupport(hostArgs);
    if (!support.ok) {
      add({
        severity: 'warn',
        code: 'host-unsupported',
        where: { ...ref, operation: 'agent-run' },
        message: formatContextEngineHostUnsupportedMessage(hostArgs, support),
        fix: 'OpenClaw fails closed before the run starts on this host; select the engine only where its host requirements are met',
      });
      return;
    }
    const sessionId = `doctor-smoke-${n}`;
    const sessionKey = `agent:doctor:${sessionId}`;
    const sessionFile = writeSmokeTranscript(workDir, sessionId);
    const messages = smokeMessages();
    // each step: call, stop when the engine got quarantined (later calls would only exercise legacy)
    const step = async <T>(call: () => Promise<T> | undefined): Promise<{ value: T } | undefined> => {
      const result = await settle(call());
      if (quarantined() || !result.ok) return undefined;
      return { value: result.value as T };
    };
    if (typeof engine.bootstrap === 'function') {
      const r = await step(() => engine.bootstrap!({ sessionId, sessionKey, sessionFile }));
      if (!r) return;
      for (const f of checkLifecycleResult(ref, 'bootstrap', r.value)) add(f);
    }
    const assembled = await step(() =>
      engine.assemble({
        sessionId,
        sessionKey,
        messages,
        tokenBudget: SMOKE_TOKEN_BUDGET,
        availableTools: new Set(['read', 'write']),
        model: 'doctor-smoke',
        prompt: SMOKE_PROMPT,
      }),
    );
    if (!assembled) return;
    for (const f of checkAssembleResult(ref, assembled.value)) add(f);

    const reply = smokeReply();
    const after = [...messages, reply];
    if (typeof engine.afterTurn === 'function') {
      if (
        !(await step(() =>
          engine.afterTurn!({
            sessionId,
            sessionKey,
            sessionFile,
            messages: after,
            prePromptMessageCount: messages.length,
            tokenBudget: SMOKE_TOKEN_BUDGET,
          }),
        ))
      )
        return;
    } else if (typeof engine.ingestBatch === 'function') {
      const r = await step(() => engine.ingestBatch!({ sessionId, sessionKey, messages: [reply] }));
      if (!r) return;
      for (const f of checkLifecycleResult(ref, 'ingestBatch', r.value)) add(f);
    } else {
      const r = await step(() => engine.ingest({ sessionId, sessionKey, message: reply }));
      if (!r) return;
      for (const f of checkLifecycleResult(ref, 'ingest', r.value)) add(f);
    }
    if (typeof engine.maintain === 'function') {
      const r = await step(() =>
        engine.maintain!({
          sessionId,
          sessionKey,
          sessionFile,
          reason: 'turn',
          runtimeContext: {
            rewriteTranscriptEntries: async () => ({ changed: false, bytesFreed: 0, rewrittenEntries: 0 }),
          },
        }),
      );
      if (!r) return;
      for (const f of checkLifecycleResult(ref, 'maintain', r.value)) add(f);
    }
    const childSessionKey = `${sessionKey}:subagent:doctor`;
    if (typeof engine.prepareSubagentSpawn === 'function') {
      const r = await step(() =>
        engine.prepareSubagentSpawn!({
          parentSessionKey: sessionKey,
          childSessionKey,
          contextMode: 'isolated',
          parentSessionId: sessionId,
        }),
      );
      if (!r) return;
      if (r.value && typeof r.value.rollback === 'function') await settle(r.value.rollback());
    }
    if (typeof engine.onSubagentEnded === 'function') {
      await step(() => engine.onSubagentEnded!({ childSessionKey, reason: 'completed' }));
    }
  } finally {
    await settle(engine.dispose?.());
  }
}

/** compact({force: true}) on a fresh instance and a throwaway transcript; never through the quarantine proxy. */
async function compactProbe(
  runtime: ContextRuntime,
  config: OpenClawConfig,
  ref: EngineRef,
  workDir: string,
  n: number,
  delegatedSessions: Set<string>,
  add: (f: DoctorFinding) => void,
): Promise<void> {
  const registration = runtime
    .listContextEngineRegistrations()
    .find((r) => r.id === ref.engineId && r.lifecycle === 'runtime');
  if (!registration) return;
  const created = await settle(registration.factory({ config: withSlot(config, ref.engineId) }));
  if (!created.ok || !created.value || typeof (created.value as ContextEngine).compact !== 'function') return;
  // the compat layer a resolved engine gets (a strict validator is retried without host keys, as in OpenClaw)
  const raw = created.value as ContextEngine;
  const engine = wrapContextEngineCompat(raw);
  const sessionId = `doctor-compact-probe-${n}`;
  const sessionFile = writeSmokeTranscript(workDir, sessionId);
  const currentTokenCount = estimateMessagesTokens(smokeMessages());
  const result = await settle(
    engine.compact({
      sessionId,
      sessionKey: `agent:doctor:${sessionId}`,
      sessionFile,
      force: true,
      forceReason: 'manual',
      tokenBudget: SMOKE_TOKEN_BUDGET,
      currentTokenCount,
      compactionTarget: 'budget',
      runtimeContext: { workspaceDir: workDir, currentTokenCount },
    }),
  );
  await settle(engine.dispose?.());
  for (const f of checkCompactProbe(ref, {
    ownsCompaction: raw.info?.ownsCompaction === true,
    delegated: delegatedSessions.has(sessionId),
    ...(result.ok ? { result: result.value } : { error: errorMessage(result.error) }),
  })) {
    add(f);
  }
}

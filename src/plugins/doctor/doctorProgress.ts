/**
 * What the doctor tells while it runs, plugin by plugin: which plugin it is loading, which engine of it it is
 * driving (a faulty engine can hold a call until its deadline), and each plugin's outcome as soon as the plugin is
 * checked. The app shows it (bridge `doctor.progress` events) and `contextscope doctor` prints it on stderr.
 */
import type { DoctorPluginStatus } from './reportTypes';

/** A checked plugin: its status and its findings by severity — the same the final report lists for it. */
export interface DoctorPluginOutcome {
  status: DoctorPluginStatus;
  statusMessage: string;
  /** engines registered in the full load */
  engines: number;
  errors: number;
  warnings: number;
  infos: number;
}

export interface DoctorProgress {
  /**
   * `loading`: the plugin's code is being loaded (or its load skipped); `loaded`: it registered engines, which are
   * driven once every plugin is loaded (the slot is resolved among them all); `driving`: one of its engines is being
   * driven; `checked`: nothing more is done for it (not executed, failed to load, or every engine driven)
   */
  phase: 'loading' | 'loaded' | 'driving' | 'checked';
  pluginId: string;
  /** the plugin's place among the plugins checked (1-based), of `plugins` */
  plugin: number;
  plugins: number;
  /** plugins checked so far (this one included on `checked`) */
  checked: number;
  /** driving: the engine, and its place among the plugin's engines (1-based) */
  engine?: { id: string; index: number; count: number };
  /** checked: what came of the plugin */
  outcome?: DoctorPluginOutcome;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line per step, for a terminal: `[2/3] faulty-engines: driving faulty-hang (engine 5 of 24)…`. */
export function formatDoctorProgress(step: DoctorProgress): string {
  const head = `[${step.plugin}/${step.plugins}] ${step.pluginId}`;
  if (step.phase === 'loading') return `${head}: loading…`;
  if (step.phase === 'loaded') return `${head}: loaded; its engines are driven once every plugin is loaded`;
  if (step.phase === 'driving' && step.engine)
    return `${head}: driving ${step.engine.id} (engine ${step.engine.index} of ${step.engine.count})…`;
  const o = step.outcome;
  if (!o) return `${head}: checked`;
  const findings = `${plural(o.errors, 'error')}, ${plural(o.warnings, 'warning')}, ${o.infos} info`;
  return `${head}: ${o.status} — ${o.statusMessage} — ${findings} (${step.checked} of ${step.plugins} checked)`;
}

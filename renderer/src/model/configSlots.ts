/**
 * The slot pickers' choices: `legacy` and every context engine the discovered plugins register (with each
 * plugin's load status), or `memory-core`, `none` and the memory plugins; a configured value that nothing
 * provides stays listed, saying what OpenClaw does with it. Pure.
 */
import type { DoctorReportInfo } from '../../../src/bridge';
import type { ConfigPluginInfo } from '../../../src/bridge/methods';

export interface SlotChoice {
  value: string;
  label: string;
  /** load status in words: "bundled · enabled · approved", "not registered: falls back to legacy" */
  detail: string;
  problem: boolean;
}

function status(plugin: ConfigPluginInfo): string {
  const consent =
    plugin.consent === 'granted'
      ? 'approved'
      : plugin.consent === 'stale-hash'
        ? 'changed since approved'
        : 'not approved';
  return [plugin.origin, plugin.enabled ? 'enabled' : 'disabled', plugin.loadable ? consent : 'cannot load'].join(
    ' · ',
  );
}

export function slotChoices(slot: string, plugins: readonly ConfigPluginInfo[], current: string): SlotChoice[] {
  const choices: SlotChoice[] =
    slot === 'contextEngine'
      ? [{ value: 'legacy', label: 'legacy', detail: "OpenClaw's built-in engine (the default)", problem: false }]
      : [
          {
            value: 'memory-core',
            label: 'memory-core',
            detail: "OpenClaw's built-in memory (the default)",
            problem: false,
          },
          { value: 'none', label: 'none', detail: 'no memory plugin', problem: false },
        ];
  const kind = slot === 'contextEngine' ? 'context-engine' : 'memory';
  for (const plugin of plugins) {
    if (!plugin.kind.includes(kind)) continue;
    const engines = slot === 'contextEngine' ? plugin.engines : [plugin.id];
    for (const engine of engines) {
      choices.push({
        value: engine,
        label: engine === plugin.id ? engine : `${engine} (${plugin.id})`,
        detail: status(plugin),
        problem: !plugin.loadable || !plugin.enabled,
      });
    }
  }
  if (!choices.some((c) => c.value === current)) {
    choices.push({
      value: current,
      label: current,
      detail:
        slot === 'contextEngine'
          ? 'not registered by any plugin found here: OpenClaw quarantines it and runs legacy'
          : 'no such memory plugin: OpenClaw refuses this config',
      problem: true,
    });
  }
  return choices;
}

/** The engine ids a doctor run that executed the plugins saw each plugin register (config.read's `engines`). */
export function enginesFromDoctor(report: DoctorReportInfo | null): Record<string, string[]> | undefined {
  if (!report?.executed) return undefined;
  const engines: Record<string, string[]> = {};
  for (const plugin of report.plugins) if (plugin.status === 'executed') engines[plugin.id] = [...plugin.engines];
  return Object.keys(engines).length ? engines : undefined;
}

export interface DoctorStatus {
  /** "doctor: executed · 2 errors, 1 warning" */
  text: string;
  tone: 'ok' | 'warn' | 'bad' | 'muted';
}

/** What the last doctor run said about a plugin, in a few words; null when there was no run. */
export function doctorStatus(report: DoctorReportInfo | null, pluginId: string): DoctorStatus | null {
  const plugin = report?.plugins.find((p) => p.id === pluginId);
  if (!report || !plugin) return null;
  const findings = report.findings.filter((f) => f.where.pluginId === pluginId);
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warn').length;
  const counts = [
    errors ? `${errors} error${errors === 1 ? '' : 's'}` : '',
    warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const tone =
    errors || plugin.status === 'invalid' || plugin.status === 'load-failed'
      ? 'bad'
      : warnings
        ? 'warn'
        : plugin.status === 'executed'
          ? 'ok'
          : 'muted';
  return { text: `doctor: ${plugin.status}${counts ? ` · ${counts}` : ''}`, tone };
}

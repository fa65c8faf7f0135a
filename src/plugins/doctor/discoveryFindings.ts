/** Findings known without running any plugin code: stale config entries, plugin problems, disabled plugins. */
import type { OpenClawConfig } from '../../contract';
import { findStaleConfigEntries } from '../discoverPlugins';
import type { DiscoveredPlugin, PluginProblem } from '../types';
import type { DoctorFinding, FindingSeverity } from './reportTypes';

function problemFinding(plugin: DiscoveredPlugin, problem: PluginProblem, severity: FindingSeverity): DoctorFinding {
  return {
    severity,
    code: problem.code,
    where: { pluginId: plugin.id, file: problem.file ?? plugin.rootDir },
    message: problem.message,
    fix: problem.fix ?? 'see the message',
  };
}

export function staleEntryFindings(config: OpenClawConfig, discovered: DiscoveredPlugin[]): DoctorFinding[] {
  return findStaleConfigEntries(config, discovered).map((stale) => ({
    severity: 'warn',
    code: 'stale-config-entry',
    where: { file: stale.key },
    message: `stale config entry ignored: ${stale.key} names "${stale.id}", but no plugin with that id was found`,
    fix: `remove "${stale.id}" from ${stale.key}, or install/link the plugin it refers to`,
  }));
}

/** A plugin's manifest, entry and config problems (errors), its warnings, and a note when it is disabled. */
export function pluginProblemFindings(plugin: DiscoveredPlugin): DoctorFinding[] {
  const findings = [
    ...plugin.errors.map((problem) => problemFinding(plugin, problem, 'error')),
    ...plugin.configErrors.map((problem) => problemFinding(plugin, problem, 'error')),
    ...plugin.warnings.map((problem) => problemFinding(plugin, problem, 'warn')),
  ];
  if (!plugin.enabled) {
    findings.push({
      severity: 'info',
      code: 'plugin-disabled',
      where: { pluginId: plugin.id, file: plugin.rootDir },
      message: `plugin is disabled: ${plugin.disabledReason ?? 'disabled'} (the doctor examines it anyway)`,
      fix: `enable it with plugins.entries.${plugin.id}.enabled: true if you mean to use it`,
    });
  }
  return findings;
}

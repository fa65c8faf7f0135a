/** Findings from loading a plugin: consent, load errors, registration diagnostics, and the two registration modes. */
import type { RegisterReport } from '../host/protocol';
import type { LoadedPlugin } from '../loadPlugin';
import type { DiscoveredPlugin } from '../types';
import type { DoctorFinding } from './reportTypes';
import { uniqueStrings } from './uniqueStrings';

const LOAD_ERROR_CODES = new Set([
  'entry-import-failed',
  'register-threw',
  'entry-no-register',
  'register-failed',
  'host-start-failed',
]);

export function notExecutedFinding(plugin: DiscoveredPlugin, loaded: LoadedPlugin): DoctorFinding {
  return {
    severity: 'info',
    code: 'not-executed',
    where: { pluginId: plugin.id, file: plugin.realPath },
    message: loaded.statusMessage,
    fix: 'run contextscope doctor --allow-execute (or approve the plugin in the app) to load it and check its engines',
  };
}

/** The load errors of a full load, then OpenClaw's registration diagnostics. */
export function loadFindings(plugin: DiscoveredPlugin, loaded: LoadedPlugin): DoctorFinding[] {
  const findings: DoctorFinding[] = loaded.errors.map((problem) => ({
    severity: 'error',
    code: LOAD_ERROR_CODES.has(problem.code) ? 'load-error' : problem.code,
    where: { pluginId: plugin.id, file: problem.file ?? plugin.rootDir },
    message: `load error: ${problem.message}`,
    fix: problem.fix ?? 'see the plugin logs',
  }));
  for (const d of loaded.diagnostics) {
    findings.push({
      severity: d.level,
      code: 'registration-diagnostic',
      where: { pluginId: d.pluginId, file: plugin.entries[0]?.file ?? plugin.rootDir },
      message: d.message,
      fix: 'fix the registerContextEngine(id, factory) call in the plugin (OpenClaw reports the same diagnostic)',
    });
  }
  return findings;
}

/** The engine ids a load registered (trimmed, each once). */
export function registeredEngineIds(registrations: RegisterReport | undefined): string[] {
  return uniqueStrings((registrations?.engines ?? []).map((e) => (typeof e.id === 'string' ? e.id.trim() : null)));
}

/** What differs between the engines of a full load and of a discovery load, and a context engine that has none. */
export function registrationModeFindings(
  plugin: DiscoveredPlugin,
  loaded: LoadedPlugin,
  fullIds: string[],
  discoveryIds: string[],
): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  if (
    plugin.kind.includes('context-engine') &&
    fullIds.length === 0 &&
    discoveryIds.length === 0 &&
    loaded.errors.length === 0
  ) {
    findings.push({
      severity: 'error',
      code: 'no-engine-registered',
      where: { pluginId: plugin.id, file: plugin.entries[0]?.file ?? plugin.rootDir },
      message: 'the plugin declares kind "context-engine" but registers no context engine',
      fix: 'call api.registerContextEngine(id, factory) in register(api)',
    });
  }
  for (const id of discoveryIds.filter((id) => !fullIds.includes(id))) {
    findings.push({
      severity: 'warn',
      code: 'engine-discovery-only',
      where: { pluginId: plugin.id, engineId: id },
      message: `engine "${id}" is registered only in registrationMode "discovery", not in a full load: OpenClaw lists it, but selecting it in plugins.slots.contextEngine quarantines it (resolve: not registered) and runs legacy`,
      fix: 'register the engine in every registrationMode; use the mode only to skip side effects such as starting services',
    });
  }
  for (const id of fullIds.filter((id) => !discoveryIds.includes(id))) {
    findings.push({
      severity: 'info',
      code: 'engine-full-only',
      where: { pluginId: plugin.id, engineId: id },
      message: `engine "${id}" is registered only in a full load: OpenClaw's discovery passes (status, doctor listings) do not see it`,
      fix: 'register context engines in every registrationMode; skip only side effects in discovery modes',
    });
  }
  return findings;
}

/** Findings from loading a plugin: consent, load errors, registration diagnostics, and the two registration modes. */
import type { RegisterReport } from '../host/protocol';
import type { LoadedPlugin } from '../loadPlugin';
import type { DiscoveredPlugin } from '../types';
import { isPluginSdkSpecifier } from '../sdk/sdkExports';
import type { DoctorFinding } from './reportTypes';
import { sdkExportKey, sdkExportMissingFinding } from './sdkImportFindings';
import { uniqueStrings } from './uniqueStrings';

/** Node's ESM link error for a named import a module does not export. */
const MISSING_EXPORT = /The requested module '([^']+)' does not provide an export named '([^']+)'/;

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

/**
 * The load errors of a full load, then OpenClaw's registration diagnostics. A link error for an export the SDK
 * shim lacks becomes `sdk-export-missing`, unless the source scan already reported it (`reportedSdkExports`).
 */
export function loadFindings(
  plugin: DiscoveredPlugin,
  loaded: LoadedPlugin,
  reportedSdkExports: ReadonlySet<string> = new Set(),
): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  for (const problem of loaded.errors) {
    const file = problem.file ?? plugin.rootDir;
    const missing = MISSING_EXPORT.exec(problem.message);
    if (missing && isPluginSdkSpecifier(missing[1]!)) {
      if (!reportedSdkExports.has(sdkExportKey(missing[1]!, missing[2]!)))
        findings.push(sdkExportMissingFinding(plugin.id, missing[1]!, missing[2]!, { file, static: true }));
      continue;
    }
    findings.push({
      severity: 'error',
      code: LOAD_ERROR_CODES.has(problem.code) ? 'load-error' : problem.code,
      where: { pluginId: plugin.id, file },
      message: `load error: ${problem.message}`,
      fix: problem.fix ?? 'see the plugin logs',
    });
  }
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

/**
 * What `config.read` answers: an openclaw.json snapshot (src/config) in the bridge's shape, with each plugin's
 * schema, uiHints, current config, engines and consent state, and the file's backups.
 */
import type { ConfigReadResponse } from '../bridge';
import { isRecord } from '../common';
import {
  formatConfigPath,
  knownEngines,
  listConfigBackups,
  valueAt,
  type ConfigEnvironment,
  type ConfigSnapshot,
} from '../config';
import { createConsentStore, defaultConsentFile, isPluginLoadable } from '../plugins';
import { pluginConsentInfo } from './pluginConsentInfo';

export function describeConfigSnapshot(
  snapshot: ConfigSnapshot,
  stateDir: string,
  env: ConfigEnvironment,
  consentFile?: string,
): ConfigReadResponse {
  const store = createConsentStore(consentFile ?? defaultConsentFile());
  const engines = knownEngines(snapshot.plugins, env.engines);
  return {
    path: snapshot.path,
    exists: snapshot.exists,
    text: snapshot.text,
    hash: snapshot.hash,
    stateDir,
    syntaxError: snapshot.syntaxError ?? null,
    readOnly: snapshot.readOnly ?? null,
    effective: snapshot.effective ?? null,
    includes: snapshot.includes.map((f) => ({
      at: formatConfigPath(f.at),
      include: f.include,
      file: f.file,
      from: f.from,
      text: f.text ?? null,
      error: f.error ?? null,
    })),
    issues: snapshot.issues,
    plugins: snapshot.plugins.map((plugin) => {
      const config = valueAt(snapshot.effective, ['plugins', 'entries', plugin.id, 'config']);
      return {
        id: plugin.id,
        ...(plugin.name !== undefined ? { name: plugin.name } : {}),
        ...(plugin.description !== undefined ? { description: plugin.description } : {}),
        kind: [...plugin.kind],
        origin: plugin.origin,
        path: plugin.rootDir,
        enabled: plugin.enabled,
        ...(plugin.disabledReason !== undefined ? { disabledReason: plugin.disabledReason } : {}),
        loadable: isPluginLoadable(plugin),
        consent: pluginConsentInfo(plugin, store).state,
        problems: [...plugin.errors, ...plugin.warnings].map((p) => ({
          code: p.code,
          message: p.message,
          ...(p.file !== undefined ? { file: p.file } : {}),
          ...(p.path !== undefined ? { path: p.path } : {}),
          ...(p.fix !== undefined ? { fix: p.fix } : {}),
        })),
        configSchema: plugin.manifest?.configSchema ?? null,
        uiHints: (plugin.manifest?.uiHints ?? {}) as Record<string, Record<string, unknown>>,
        config: isRecord(config) ? config : null,
        engines: engines.filter((e) => e.pluginId === plugin.id).map((e) => e.engineId),
      };
    }),
    backups: listConfigBackups(snapshot.path),
  };
}

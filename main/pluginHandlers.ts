/**
 * The `plugins.*` and `doctor.run` handlers of the bridge table: discovery, consent and the doctor from
 * src/plugins, mapped onto the bridge shapes (src/bridge/methods/plugins.ts). No Electron import: the Electron
 * shell passes its engine-host transport in through the environment.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  createConsentBroker,
  pluginAt,
  pluginConsentInfo,
  type ConsentBroker,
  type ConsentSubjectInfo,
} from '../src/app';
import { BridgeMethodError, type HandlersFor, type ListedPlugin, type pluginsMethods } from '../src/bridge';
import { errorMessage } from '../src/common';
import { locateOpenClawConfig, readOpenClawConfigFile } from '../src/config';
import type { OpenClawConfig } from '../src/contract';
import {
  confirmedConsent,
  createConsentStore,
  defaultConsentFile,
  defaultStateDir,
  discoverPlugins,
  doctorDeadlines,
  hashPluginPackage,
  isPluginLoadable,
  runDoctor,
  type ConsentStore,
  type DiscoveredPlugin,
  type DoctorReport,
  type EngineHostTransportFactory,
  type PluginProblem,
} from '../src/plugins';

export interface PluginHandlerEnvironment {
  /** the consent file (default: plugin-consent.json in the app config dir, read when each call runs) */
  consentFile?: string;
  /** how engine hosts are started (Electron: utilityProcess); default child_process.fork */
  engineHostTransport?: EngineHostTransportFactory;
  /** where consent is asked for and nonces are kept (default: one without a dialog, for browser mode) */
  consentBroker?: ConsentBroker;
}

type PluginHandlers = HandlersFor<typeof pluginsMethods>;

export function createPluginHandlers(env: PluginHandlerEnvironment = {}): PluginHandlers {
  const consentStore = (): ConsentStore => createConsentStore(env.consentFile ?? defaultConsentFile());
  const broker = env.consentBroker ?? createConsentBroker();
  const doctorCache = new Map<string, DoctorReport>();

  return {
    'plugins.list': ({ stateDir, workspaceDir }) => {
      const dir = stateDir ? resolve(stateDir) : defaultStateDir();
      const { config, configPath } = readConfig(dir);
      const store = consentStore();
      const plugins = discoverPlugins({
        config,
        stateDir: dir,
        ...(workspaceDir ? { workspaceDir: resolve(workspaceDir) } : {}),
      });
      return {
        stateDir: dir,
        workspaceDir: workspaceDir ? resolve(workspaceDir) : null,
        configPath: configPath ?? null,
        consentFile: store.file,
        plugins: plugins.map((plugin) => describePlugin(plugin, store)),
      };
    },
    'plugins.requestConsent': ({ paths, purpose, grants }) => broker.request(paths, purpose, grants),
    'plugins.approve': ({ nonce }) => {
      const store = consentStore();
      const plugins = broker.take(nonce, 'approve', '/nonce').map((confirmed) => {
        const plugin = pluginAt(confirmed.path, '/nonce');
        try {
          store.grant(plugin, confirmed.hash, confirmed.grants);
        } catch (error) {
          throw new BridgeMethodError('consent_stale', errorMessage(error), '/nonce');
        }
        return {
          pluginId: plugin.id,
          path: plugin.rootDir,
          realPath: plugin.realPath,
          consent: pluginConsentInfo(plugin, store),
        };
      });
      return { plugins };
    },
    'plugins.revoke': ({ path }) => {
      const plugin = pluginAt(path);
      return { path: plugin.rootDir, realPath: plugin.realPath, revoked: consentStore().revoke(plugin.realPath) };
    },
    'doctor.run': async ({ stateDir, workspaceDir, consentNonce, timeoutMs }, ctx) => {
      const confirmed = consentNonce !== undefined ? broker.take(consentNonce, 'run', '/consentNonce') : [];
      const dir = stateDir ? resolve(stateDir) : defaultStateDir();
      const { config, configPath } = readConfig(dir);
      const workspace = workspaceDir ? resolve(workspaceDir) : undefined;
      const store = consentStore();
      // the same plugins (content hash), config, consent and confirmed plugins give the same report
      const key = doctorCacheKey(dir, configPath, workspace, confirmed, config, store, timeoutMs);
      const cached = doctorCache.get(key);
      if (cached) {
        ctx.emit('progress', { taskId: 'doctor', phase: 'cached', done: 1, total: 1, message: 'no plugin changed' });
        return cached;
      }
      const report = await runDoctor({
        config,
        ...(configPath ? { configPath } : {}),
        stateDir: dir,
        ...(workspace ? { workspaceDir: workspace } : {}),
        allowExecute: false,
        consent: confirmed.length > 0 ? confirmedConsent(confirmed, store) : store,
        ...(timeoutMs !== undefined ? { deadlines: doctorDeadlines(timeoutMs) } : {}),
        ...(env.engineHostTransport ? { transport: env.engineHostTransport } : {}),
        onProgress: (step) => ctx.emit('doctor.progress', step),
      });
      doctorCache.clear(); // one entry: the latest state of the plugins
      doctorCache.set(key, report);
      return report;
    },
  };
}

/** What a doctor report depends on: every plugin's folder and content hash, the config text, consent, options. */
function doctorCacheKey(
  stateDir: string,
  configPath: string | undefined,
  workspaceDir: string | undefined,
  confirmed: readonly ConsentSubjectInfo[],
  config: OpenClawConfig,
  store: ConsentStore,
  timeoutMs: number | undefined,
): string {
  const plugins = discoverPlugins({ config, stateDir, ...(workspaceDir ? { workspaceDir } : {}) }).map((p) => [
    p.realPath,
    hashPluginPackage(p),
  ]);
  let configText: string;
  try {
    configText = configPath ? readFileSync(configPath, 'utf8') : '';
  } catch {
    configText = '(unreadable)';
  }
  return JSON.stringify({
    stateDir,
    configPath,
    configText,
    workspaceDir,
    confirmed: confirmed.map((c) => [c.realPath, c.hash]),
    plugins,
    consent: store.list(),
    timeoutMs,
  });
}

function readConfig(stateDir: string): { config: OpenClawConfig; configPath?: string } {
  const configPath = locateOpenClawConfig(undefined, stateDir);
  if (!configPath) return { config: {} };
  try {
    return { config: readOpenClawConfigFile(configPath), configPath };
  } catch (error) {
    throw new BridgeMethodError('invalid_config', errorMessage(error), '/stateDir');
  }
}

function problem(p: PluginProblem) {
  return {
    code: p.code,
    message: p.message,
    ...(p.file !== undefined ? { file: p.file } : {}),
    ...(p.path !== undefined ? { path: p.path } : {}),
    ...(p.fix !== undefined ? { fix: p.fix } : {}),
  };
}

function schemaType(schema: Record<string, unknown>): string {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.filter((t) => typeof t === 'string').join('|');
  if (Array.isArray(schema.enum)) return 'enum';
  return '';
}

/** The top-level properties of a config schema with their uiHints labels (nested objects stay one field). */
export function summarizeConfigSchema(
  plugin: Pick<DiscoveredPlugin, 'configSchema' | 'manifest'>,
): ListedPlugin['configSchema'] {
  const schema = plugin.configSchema;
  if (!schema || typeof schema !== 'object') return null;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const hints = plugin.manifest?.uiHints ?? {};
  const fields = Object.entries(properties).map(([key, raw]) => {
    const property = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const hint = hints[key];
    const description =
      typeof hint?.help === 'string'
        ? hint.help
        : typeof property.description === 'string'
          ? property.description
          : undefined;
    return {
      key,
      type: schemaType(property),
      ...(typeof hint?.label === 'string' ? { label: hint.label } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(property.default !== undefined ? { default: property.default } : {}),
      advanced: hint?.advanced === true,
    };
  });
  return { fields, additionalProperties: schema.additionalProperties !== false };
}

export function describePlugin(plugin: DiscoveredPlugin, store: ConsentStore): ListedPlugin {
  return {
    id: plugin.id,
    ...(plugin.name !== undefined ? { name: plugin.name } : {}),
    ...(plugin.version !== undefined ? { version: plugin.version } : {}),
    ...(plugin.description !== undefined ? { description: plugin.description } : {}),
    kind: [...plugin.kind],
    path: plugin.rootDir,
    realPath: plugin.realPath,
    origin: plugin.origin,
    enabled: plugin.enabled,
    ...(plugin.disabledReason !== undefined ? { disabledReason: plugin.disabledReason } : {}),
    loadable: isPluginLoadable(plugin),
    entries: plugin.entries.map((entry) => entry.declared),
    errors: plugin.errors.map(problem),
    configErrors: plugin.configErrors.map(problem),
    warnings: plugin.warnings.map(problem),
    configSchema: summarizeConfigSchema(plugin),
    consent: pluginConsentInfo(plugin, store),
    shadowed: plugin.shadowed.map((s) => ({ path: s.rootDir, origin: s.origin })),
  };
}

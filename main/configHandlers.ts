/**
 * The `config.*` handlers of the bridge table: openclaw.json through src/config (read with validation, preview,
 * guarded save, backups, try-before-save lanes), mapped onto the bridge shapes (src/bridge/methods/config.ts).
 * The texts read are remembered by hash for a while, so a save refused because the file changed on disk can show
 * what changed. Try-before-save configs go to temporary folders this process owns (the newest few are kept).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BridgeMethodError, type HandlersFor } from '../src/bridge';
import type { configMethods, ConfigPreviewInfo } from '../src/bridge/methods';
import { isRecord } from '../src/common';
import {
  buildTryLanes,
  formatConfigPath,
  knownEngines,
  listConfigBackups,
  openClawConfigTarget,
  previewConfig,
  readConfigSnapshot,
  restoreConfigBackup,
  saveConfig,
  snapshotOfText,
  textDiff,
  valueAt,
  type ConfigChange,
  type ConfigEnvironment,
  type ConfigPreview,
  type ConfigSnapshot,
  type SaveOutcome,
} from '../src/config';
import { createConsentStore, defaultConsentFile, defaultStateDir, isPluginLoadable } from '../src/plugins';
import { pluginConsentInfo } from '../src/app';

export interface ConfigHandlerEnvironment {
  /** the consent file (to show each plugin's load status); default: the app config dir's */
  consentFile?: string;
  /** where try-before-save configs go (default: the system temp dir) */
  tempRoot?: string;
}

type ConfigHandlers = HandlersFor<typeof configMethods>;

interface Location {
  configPath?: string;
  stateDir?: string;
  workspaceDir?: string;
  engines?: Record<string, string[]>;
}

const REMEMBERED_TEXTS = 16;
const KEPT_TRY_DIRS = 4;

function locate(request: Location): { path: string; env: ConfigEnvironment; stateDir: string } {
  const stateDir = request.stateDir ? resolve(request.stateDir) : defaultStateDir();
  return {
    path: request.configPath ? resolve(request.configPath) : openClawConfigTarget(undefined, stateDir),
    stateDir,
    env: {
      stateDir,
      ...(request.workspaceDir ? { workspaceDir: resolve(request.workspaceDir) } : {}),
      ...(request.engines ? { engines: request.engines } : {}),
    },
  };
}

function previewInfo(preview: ConfigPreview, currentHash: string): ConfigPreviewInfo {
  return { ...preview, currentHash, stale: currentHash !== preview.baseHash, refused: preview.refused ?? null };
}

function input(request: { changes?: ConfigChange[]; text?: string }) {
  if (request.text !== undefined && request.changes !== undefined)
    throw new BridgeMethodError(
      'invalid_params',
      'give either changes (the form) or text (the raw editor), not both',
      '/text',
    );
  return request.text !== undefined ? { text: request.text } : { changes: request.changes ?? [] };
}

export function createConfigHandlers(env: ConfigHandlerEnvironment = {}): ConfigHandlers {
  const texts = new Map<string, string>();
  const tryDirs: string[] = [];
  const remember = (snapshot: ConfigSnapshot) => {
    texts.delete(snapshot.hash);
    texts.set(snapshot.hash, snapshot.text);
    while (texts.size > REMEMBERED_TEXTS) texts.delete(texts.keys().next().value as string);
  };
  const saveResult = (outcome: SaveOutcome, baseHash: string) => {
    if (outcome.ok) {
      return {
        ...outcome,
        backupFile: outcome.backupFile ?? null,
        preview: previewInfo(outcome.preview, outcome.hash),
      };
    }
    if (outcome.reason === 'changed-on-disk') {
      const before = texts.get(baseHash);
      const externalDiff = before === undefined ? '' : textDiff('openclaw.json', before, outcome.current.text);
      return { ...outcome, externalDiff };
    }
    return { ...outcome, preview: previewInfo(outcome.preview, outcome.preview.baseHash) };
  };

  return {
    'config.read': (request) => {
      const { path, env: configEnv, stateDir } = locate(request);
      const snapshot = readConfigSnapshot(path, configEnv);
      remember(snapshot);
      return describeSnapshot(snapshot, stateDir, configEnv, env.consentFile);
    },
    'config.preview': (request) => {
      const { path, env: configEnv } = locate(request);
      // the preview applies to the file as it is now; stale says it is no longer the version that was read
      const snapshot = readConfigSnapshot(path, configEnv);
      const preview = previewConfig(snapshot, input(request), configEnv);
      return previewInfo({ ...preview, baseHash: request.baseHash }, snapshot.hash);
    },
    'config.save': (request) => {
      const { path, env: configEnv } = locate(request);
      const outcome = saveConfig({ path, baseHash: request.baseHash, ...input(request) }, configEnv);
      if (outcome.ok) remember(readConfigSnapshot(path, configEnv));
      return saveResult(outcome, request.baseHash);
    },
    'config.restore': (request) => {
      const { path, env: configEnv } = locate(request);
      if (!listConfigBackups(path).some((b) => b.file === request.backupFile)) {
        throw new BridgeMethodError(
          'not_found',
          `${request.backupFile} is not one of the backups of ${path}`,
          '/backupFile',
        );
      }
      const outcome = restoreConfigBackup(
        { path, baseHash: request.baseHash, backupFile: request.backupFile },
        configEnv,
      );
      if (outcome.ok) remember(readConfigSnapshot(path, configEnv));
      return saveResult(outcome, request.baseHash);
    },
    'config.tryLanes': (request) => {
      const { path, env: configEnv } = locate(request);
      const saved = readConfigSnapshot(path, configEnv);
      const preview = previewConfig(saved, input(request), configEnv);
      const dir = mkdtempSync(join(env.tempRoot ?? tmpdir(), 'contextscope-try-'));
      tryDirs.push(dir);
      while (tryDirs.length > KEPT_TRY_DIRS) rmSync(tryDirs.shift()!, { recursive: true, force: true });
      const edited = preview.refused ? saved : snapshotOfText(path, preview.text, configEnv);
      return { ...buildTryLanes(saved, edited, dir, configEnv), refused: preview.refused ?? null };
    },
  };
}

function describeSnapshot(snapshot: ConfigSnapshot, stateDir: string, env: ConfigEnvironment, consentFile?: string) {
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

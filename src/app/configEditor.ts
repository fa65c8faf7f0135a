/**
 * Editing openclaw.json from the app (`config.*`): read with validation, preview, guarded save and restore, and
 * try-before-save lanes, through src/config, answering in the bridge's shapes (src/bridge/methods/config.ts).
 * The state an editing session needs lives here: the texts read are remembered by hash for a while, so a save
 * refused because the file changed on disk can show what changed; try-before-save configs go to temporary folders
 * this editor owns (the newest few are kept).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  BridgeMethodError,
  type ConfigPreviewInfo,
  type ConfigReadResponse,
  type ConfigSaveResponse,
  type ConfigTryLanesResponse,
  type RequestOf,
} from '../bridge';
import {
  buildTryLanes,
  listConfigBackups,
  openClawConfigTarget,
  previewConfig,
  readConfigSnapshot,
  restoreConfigBackup,
  saveConfig,
  snapshotOfText,
  textDiff,
  type ConfigEnvironment,
  type ConfigPreview,
  type ConfigSnapshot,
  type SaveOutcome,
} from '../config';
import { defaultStateDir } from '../plugins';
import { describeConfigSnapshot } from './describeConfigSnapshot';

export interface ConfigEditorOptions {
  /** the consent file (to show each plugin's load status); default: the app config dir's */
  consentFile?: string;
  /** where try-before-save configs go (default: the system temp dir) */
  tempRoot?: string;
}

/** Which openclaw.json (`configPath`, else the state dir's) and the environment it is read in. */
export type ConfigLocation = RequestOf<'config.read'>;
/** A location, the hash the edit was made against, and either form changes or the raw editor's text. */
export type ConfigEditRequest = RequestOf<'config.preview'>;
export type ConfigRestoreRequest = RequestOf<'config.restore'>;

export interface ConfigEditor {
  read(location: ConfigLocation): ConfigReadResponse;
  /** what the edit would do to the file as it is now (`stale`: it is no longer the version that was read) */
  preview(request: ConfigEditRequest): ConfigPreviewInfo;
  save(request: ConfigEditRequest): ConfigSaveResponse;
  restore(request: ConfigRestoreRequest): ConfigSaveResponse;
  tryLanes(request: ConfigEditRequest): ConfigTryLanesResponse;
}

const REMEMBERED_TEXTS = 16;
const KEPT_TRY_DIRS = 4;

function locate(request: ConfigLocation): { path: string; env: ConfigEnvironment; stateDir: string } {
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

/** The edit of a request: the form's changes or the raw editor's text, never both. */
function editOf(request: ConfigEditRequest) {
  if (request.text !== undefined && request.changes !== undefined)
    throw new BridgeMethodError(
      'invalid_params',
      'give either changes (the form) or text (the raw editor), not both',
      '/text',
    );
  return request.text !== undefined ? { text: request.text } : { changes: request.changes ?? [] };
}

export function createConfigEditor(options: ConfigEditorOptions = {}): ConfigEditor {
  const texts = new Map<string, string>();
  const tryDirs: string[] = [];
  const remember = (snapshot: ConfigSnapshot) => {
    texts.delete(snapshot.hash);
    texts.set(snapshot.hash, snapshot.text);
    while (texts.size > REMEMBERED_TEXTS) texts.delete(texts.keys().next().value as string);
  };
  const saveResult = (outcome: SaveOutcome, baseHash: string): ConfigSaveResponse => {
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
    read(request) {
      const { path, env, stateDir } = locate(request);
      const snapshot = readConfigSnapshot(path, env);
      remember(snapshot);
      return describeConfigSnapshot(snapshot, stateDir, env, options.consentFile);
    },
    preview(request) {
      const { path, env } = locate(request);
      const snapshot = readConfigSnapshot(path, env);
      const preview = previewConfig(snapshot, editOf(request), env);
      return previewInfo({ ...preview, baseHash: request.baseHash }, snapshot.hash);
    },
    save(request) {
      const { path, env } = locate(request);
      const outcome = saveConfig({ path, baseHash: request.baseHash, ...editOf(request) }, env);
      if (outcome.ok) remember(readConfigSnapshot(path, env));
      return saveResult(outcome, request.baseHash);
    },
    restore(request) {
      const { path, env } = locate(request);
      if (!listConfigBackups(path).some((b) => b.file === request.backupFile)) {
        throw new BridgeMethodError(
          'not_found',
          `${request.backupFile} is not one of the backups of ${path}`,
          '/backupFile',
        );
      }
      const outcome = restoreConfigBackup({ path, baseHash: request.baseHash, backupFile: request.backupFile }, env);
      if (outcome.ok) remember(readConfigSnapshot(path, env));
      return saveResult(outcome, request.baseHash);
    },
    tryLanes(request) {
      const { path, env } = locate(request);
      const saved = readConfigSnapshot(path, env);
      const preview = previewConfig(saved, editOf(request), env);
      const dir = mkdtempSync(join(options.tempRoot ?? tmpdir(), 'contextscope-try-'));
      tryDirs.push(dir);
      while (tryDirs.length > KEPT_TRY_DIRS) rmSync(tryDirs.shift()!, { recursive: true, force: true });
      const edited = preview.refused ? saved : snapshotOfText(path, preview.text, env);
      return { ...buildTryLanes(saved, edited, dir, env), refused: preview.refused ?? null };
    },
  };
}

/**
 * Preview and save of openclaw.json. A preview applies changes (or takes the raw editor's text) to a snapshot and
 * says what they do: the new text, path-level changes, the text diff, the new config's validation. A save does
 * the same against the file as it is now on disk and writes only when the file still has the hash it was loaded
 * with and the result has no validation error — atomically, after a timestamped backup of the previous version.
 * Restoring a backup is such a save too.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import {
  contentHash,
  errorMessage,
  FileChangedError,
  listBackups,
  writeFileAtomic,
  type BackupOptions,
} from '../common';
import { pathChanges, textDiff, type PathChange } from './configDiff';
import type { ConfigChange } from './configOperations';
import {
  applyChanges,
  readConfigSnapshot,
  snapshotOfText,
  type ConfigEnvironment,
  type ConfigSnapshot,
  type LocatedIssue,
} from './configSnapshot';

export type ConfigInput =
  { changes: readonly ConfigChange[]; text?: undefined } | { text: string; changes?: undefined };

export interface ConfigPreview {
  path: string;
  /** the hash of the text the changes were applied to */
  baseHash: string;
  text: string;
  changed: boolean;
  changes: PathChange[];
  diff: string;
  issues: LocatedIssue[];
  /** no validation error: a save would write it */
  ok: boolean;
  notes: string[];
  /** the edit could not be made (an $include, a value in the way, a file in raw mode): nothing else is valid */
  refused?: string;
}

export function previewConfig(
  snapshot: ConfigSnapshot,
  input: ConfigInput,
  env: ConfigEnvironment = {},
): ConfigPreview {
  const base = { path: snapshot.path, baseHash: snapshot.hash };
  let text: string;
  let notes: string[] = [];
  if (input.text !== undefined) text = input.text;
  else {
    try {
      ({ text, notes } = applyChanges(snapshot, input.changes, env));
    } catch (error) {
      const refused = errorMessage(error);
      return {
        ...base,
        text: snapshot.text,
        changed: false,
        changes: [],
        diff: '',
        issues: snapshot.issues,
        ok: false,
        notes: [],
        refused,
      };
    }
  }
  const after = snapshotOfText(snapshot.path, text, env);
  const before = snapshot.exists ? snapshot.text : '';
  // a file that does not exist yet is only created by a change (or by the text editor)
  const changed = snapshot.exists ? text !== snapshot.text : input.text !== undefined || text !== snapshot.doc.text;
  return {
    ...base,
    text,
    changed,
    changes: after.syntaxError ? [] : pathChanges(snapshot.effective ?? {}, after.effective),
    diff: textDiff(basename(snapshot.path), before, text),
    issues: after.issues,
    ok: !after.issues.some((i) => i.severity === 'error'),
    notes,
  };
}

export interface SaveOptions {
  /** where backups go (default `<file>.backups` beside it) and how many are kept */
  backup?: BackupOptions;
}

export type SaveOutcome =
  | { ok: true; path: string; hash: string; written: boolean; backupFile?: string; preview: ConfigPreview }
  | {
      ok: false;
      reason: 'changed-on-disk';
      message: string;
      path: string;
      current: { hash: string; text: string; exists: boolean };
    }
  | { ok: false; reason: 'invalid' | 'refused'; message: string; path: string; preview: ConfigPreview };

function changedOnDisk(path: string, message: string): SaveOutcome {
  const now = readConfigSnapshot(path);
  return {
    ok: false,
    reason: 'changed-on-disk',
    message,
    path,
    current: { hash: now.hash, text: now.text, exists: now.exists },
  };
}

function refusalMessage(preview: ConfigPreview): string {
  const errors = preview.issues.filter((i) => i.severity === 'error');
  return `nothing was written: ${errors.length} validation error${errors.length === 1 ? '' : 's'} — ${errors
    .map((e) => `${e.line ? `line ${e.line}: ` : ''}${e.message}`)
    .join('; ')}`;
}

/** Applies `input` to the file as it is on disk, if it still hashes to `baseHash`, and writes it. */
export function saveConfig(
  request: { path: string; baseHash: string } & ConfigInput,
  env: ConfigEnvironment = {},
  options: SaveOptions = {},
): SaveOutcome {
  const snapshot = readConfigSnapshot(request.path, env);
  if (snapshot.hash !== request.baseHash) {
    return changedOnDisk(
      snapshot.path,
      `${snapshot.path} changed on disk since it was loaded; nothing was written. Reload it and apply your changes again.`,
    );
  }
  const preview = previewConfig(snapshot, request, env);
  if (preview.refused) return { ok: false, reason: 'refused', message: preview.refused, path: snapshot.path, preview };
  if (!preview.ok)
    return { ok: false, reason: 'invalid', message: refusalMessage(preview), path: snapshot.path, preview };
  if (!preview.changed) return { ok: true, path: snapshot.path, hash: snapshot.hash, written: false, preview };
  try {
    const written = writeFileAtomic(snapshot.path, preview.text, {
      expectedHash: request.baseHash,
      backup: options.backup ?? {},
      symlinks: 'follow', // an openclaw.json kept behind a link (a dotfiles repo) is saved where it lives
    });
    return {
      ok: true,
      path: snapshot.path,
      hash: written.hash,
      written: true,
      ...(written.backupFile ? { backupFile: written.backupFile } : {}),
      preview,
    };
  } catch (error) {
    if (error instanceof FileChangedError) return changedOnDisk(snapshot.path, error.message);
    throw error;
  }
}

export interface ConfigBackup {
  file: string;
  /** when the save that replaced this version happened (ISO) */
  savedAt: string;
  bytes: number;
  hash: string;
}

/** The backups of `path`, newest first. */
export function listConfigBackups(path: string, options: SaveOptions = {}): ConfigBackup[] {
  return listBackups(path, ...(options.backup?.dir ? [options.backup.dir] : [])).map((file) => {
    const bytes = readFileSync(file);
    const stamp = /\.(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d+Z)(?:-\d+)?\.bak$/.exec(file)?.[1];
    return {
      file,
      savedAt: stamp ? stamp.replace(/T(\d\d)-(\d\d)-(\d\d)/, 'T$1:$2:$3') : statSync(file).mtime.toISOString(),
      bytes: bytes.length,
      hash: contentHash(bytes),
    };
  });
}

/** Writes a backup back as the file: a normal save (hash-checked, validated, the current version backed up). */
export function restoreConfigBackup(
  request: { path: string; baseHash: string; backupFile: string },
  env: ConfigEnvironment = {},
  options: SaveOptions = {},
): SaveOutcome {
  const known = listConfigBackups(request.path, options).find((b) => b.file === request.backupFile);
  if (!known) {
    throw new Error(
      `${request.backupFile} is not one of the backups of ${request.path}; pick one that config backups lists`,
    );
  }
  const text = readFileSync(known.file, 'utf8');
  return saveConfig({ path: request.path, baseHash: request.baseHash, text }, env, options);
}

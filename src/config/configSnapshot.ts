/**
 * One reading of openclaw.json: its bytes and content hash (what a save is checked against), the JSON5 document,
 * the effective config with `$include`s merged, the plugins discovery finds with it and the config's validation.
 * A file that is not JSON5 is a snapshot too ("raw mode"): its syntax error with line and column, no form edits.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ABSENT_FILE_HASH, contentHash, isRecord } from '../common';
import type { OpenClawConfig } from '../contract';
import { defaultStateDir, discoverPlugins, type DiscoveredPlugin } from '../plugins';
import { formatConfigPath, type ConfigPath } from './configPath';
import { INCLUDE_KEY, includeOwnerOf, resolveIncludes, type IncludedFile } from './configIncludes';
import { expandChange, type ConfigChange } from './configOperations';
import { ConfigEditError, editText } from './json5Edit';
import { locatePath, parseJson5Document, type Json5Document, type Json5SyntaxProblem } from './json5Document';
import { validateOpenClawConfig, type ConfigIssue } from './validateConfig';

export interface ConfigEnvironment {
  /** OpenClaw state dir (default $OPENCLAW_STATE_DIR, else ~/.openclaw): adds <stateDir>/extensions */
  stateDir?: string;
  workspaceDir?: string;
  /** the bundled sample plugins (default ContextScope's resources/plugins); false leaves them out */
  bundledDir?: string | false;
  env?: NodeJS.ProcessEnv;
  /** engine ids per plugin id, when a doctor run has executed the plugins */
  engines?: Readonly<Record<string, readonly string[]>>;
}

export interface LocatedIssue extends ConfigIssue {
  /** where in openclaw.json (1-based), when the path (or its parent) is written there */
  line?: number;
  column?: number;
}

export interface ConfigSnapshot {
  path: string;
  exists: boolean;
  /** the file as read ('' when it does not exist) */
  text: string;
  /** contentHash of the bytes, ABSENT_FILE_HASH when there is no file */
  hash: string;
  /** the document edits start from (`{}` for a file that does not exist yet) */
  doc: Json5Document;
  /** the effective config ($include merged); undefined when the file is not JSON5 */
  effective: unknown;
  includes: IncludedFile[];
  plugins: DiscoveredPlugin[];
  issues: LocatedIssue[];
  /** the syntax error of a file that is not JSON5 (raw mode: only the text editor may change it) */
  syntaxError?: Json5SyntaxProblem;
  /** why form edits cannot be written (raw mode, a layout the editor cannot follow) */
  readOnly?: string;
}

const EMPTY_CONFIG = '{}\n';

export function readConfigSnapshot(path: string, env: ConfigEnvironment = {}): ConfigSnapshot {
  const file = resolve(path);
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!bytes) return snapshotOfText(file, EMPTY_CONFIG, env, { exists: false });
  return snapshotOfText(file, bytes.toString('utf8'), env, { exists: true, hash: contentHash(bytes) });
}

/** A snapshot of `text` as if it were the content of `path` (previews of an edit, the raw editor). */
export function snapshotOfText(
  path: string,
  text: string,
  env: ConfigEnvironment = {},
  file: { exists: boolean; hash?: string } = { exists: true },
): ConfigSnapshot {
  const doc = parseJson5Document(text);
  const base = {
    path,
    exists: file.exists,
    text: file.exists ? text : '',
    hash: file.exists ? (file.hash ?? contentHash(text)) : ABSENT_FILE_HASH,
    doc,
  };
  if (!doc.ok) {
    const plugins = discover({}, path, env);
    return {
      ...base,
      effective: undefined,
      includes: [],
      plugins,
      syntaxError: doc.problem,
      readOnly: `${path} is not valid JSON5 (line ${doc.problem.line}, column ${doc.problem.column}): fix it in the text editor; the form does not write a file it cannot read`,
      issues: [
        {
          severity: 'error',
          code: 'syntax',
          path: [],
          message: `not valid JSON5 at line ${doc.problem.line}, column ${doc.problem.column}: ${doc.problem.message}`,
          fix: 'fix the syntax at that position (JSON5: comments, trailing commas and unquoted keys are fine)',
          line: doc.problem.line,
          column: doc.problem.column,
        },
      ],
    };
  }
  const { value: effective, files: includes } = resolveIncludes(doc.value, path);
  const plugins = discover(isRecord(effective) ? (effective as OpenClawConfig) : {}, path, env);
  const issues: LocatedIssue[] = [
    ...includes
      .filter((f) => f.error)
      .map((f) => ({
        severity: 'error' as const,
        code: 'include-invalid',
        path: [...f.at, INCLUDE_KEY],
        message: `$include "${f.include}" at ${formatConfigPath(f.at)}: ${f.error}`,
        fix: 'correct the included file or the $include path',
        file: f.file || f.from,
      })),
    ...validateOpenClawConfig(effective, { plugins, ...(env.engines ? { engines: env.engines } : {}) }),
  ].map((issue) => ({ ...issue, ...locatePath(doc, issue.path) }));
  return { ...base, effective, includes, plugins, issues, ...(doc.root ? {} : { readOnly: doc.editProblem }) };
}

function discover(config: OpenClawConfig, path: string, env: ConfigEnvironment): DiscoveredPlugin[] {
  return discoverPlugins({
    config,
    stateDir: env.stateDir ?? defaultStateDir(env.env ?? process.env),
    ...(env.workspaceDir ? { workspaceDir: env.workspaceDir } : {}),
    ...(env.bundledDir !== undefined ? { bundledDir: env.bundledDir } : {}),
    baseDir: env.workspaceDir ?? dirname(path),
    ...(env.env ? { env: env.env } : {}),
  });
}

export interface AppliedChanges {
  text: string;
  notes: string[];
}

/** Refuses an edit of `path` that would land in an $include file (or replace an $include). */
function checkNotIncluded(snapshot: ConfigSnapshot, doc: Json5Document, path: ConfigPath): void {
  if (!doc.ok) return;
  const owner = includeOwnerOf(doc.value, path, snapshot.includes, snapshot.path);
  if (owner && owner.include === INCLUDE_KEY) {
    throw new ConfigEditError(
      `${formatConfigPath(path)} holds an $include (at ${formatConfigPath(owner.at)}): change $include in the text editor`,
    );
  }
  if (owner) {
    throw new ConfigEditError(
      `${formatConfigPath(path)} comes from the $include file ${owner.file} (included at ${formatConfigPath(owner.at)} as "${owner.include}"); ContextScope shows included files read-only: change it in that file`,
    );
  }
}

/** The text after `changes`, in order; throws ConfigEditError / OperationError with what and where. */
export function applyChanges(
  snapshot: ConfigSnapshot,
  changes: readonly ConfigChange[],
  env: ConfigEnvironment = {},
): AppliedChanges {
  if (snapshot.readOnly) throw new ConfigEditError(snapshot.readOnly);
  let doc = snapshot.doc;
  let effective = snapshot.effective;
  const notes: string[] = [];
  for (const change of changes) {
    const expanded = expandChange(
      {
        config: effective,
        plugins: snapshot.plugins,
        baseDir: dirname(snapshot.path),
        ...(env.engines ? { engines: env.engines } : {}),
      },
      change,
    );
    notes.push(...expanded.notes);
    for (const edit of expanded.edits) {
      checkNotIncluded(snapshot, doc, edit.path);
      doc = parseJson5Document(editText(doc, edit));
    }
    if (doc.ok) effective = resolveIncludes(doc.value, snapshot.path).value;
  }
  return { text: doc.text, notes };
}

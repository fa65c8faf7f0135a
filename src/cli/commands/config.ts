/**
 * `contextscope config get [path] | set <path> <value> | unset <path> | validate`: read and change openclaw.json
 * without losing its comments or layout, validated as OpenClaw validates it, saved atomically after a backup.
 * Every subcommand takes --config <file>, --state-dir <dir>, --workspace <dir> and --json; set/unset take
 * --dry-run. Exit 0 on success, 1 when validation (or an $include) refuses the change — nothing is written —
 * or when get finds nothing at the path, 2 on usage errors and a config that cannot be read.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import JSON5 from 'json5';
import { errorMessage } from '../../common';
import {
  ConfigPathError,
  formatConfigPath,
  includeOwnerOf,
  openClawConfigTarget,
  parseConfigPath,
  previewConfig,
  readConfigSnapshot,
  saveConfig,
  valueAt,
  type ConfigChange,
  type ConfigEnvironment,
  type ConfigPreview,
  type LocatedIssue,
  type PathChange,
} from '../../config';
import { defaultStateDir } from '../../plugins';
import type { CliHost } from '../cliHost';

export interface ConfigCliOptions {
  config?: string;
  stateDir?: string;
  workspace?: string;
  json?: boolean;
  dryRun?: boolean;
}

/** The file to read/write and the discovery environment of these options. */
export function configContext(options: ConfigCliOptions): { path: string; env: ConfigEnvironment } {
  const stateDir = options.stateDir ? resolve(options.stateDir) : defaultStateDir();
  return {
    path: openClawConfigTarget(options.config, stateDir),
    env: { stateDir, ...(options.workspace ? { workspaceDir: resolve(options.workspace) } : {}) },
  };
}

/** --config/--state-dir/--workspace/--json, and commander's usage errors exit with 2 (not 1). */
export function withConfigOptions(command: Command, dryRun = false): Command {
  command
    .option(
      '--config <openclaw.json>',
      'the OpenClaw config (default: $OPENCLAW_CONFIG_PATH or <state dir>/openclaw.json)',
    )
    .option(
      '--state-dir <dir>',
      'the OpenClaw state dir (default: $OPENCLAW_STATE_DIR or ~/.openclaw); adds <dir>/extensions',
    )
    .option('--workspace <dir>', 'the agent workspace; adds <dir>/.openclaw/extensions')
    .option('--json', 'print the result as JSON');
  if (dryRun) command.option('--dry-run', 'show what would change (and the diff) without writing');
  return command.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
}

function where(issue: LocatedIssue, path: string): string {
  const file = issue.file ?? path;
  return issue.line !== undefined && !issue.file ? `${file}:${issue.line}:${issue.column}` : file;
}

export function formatIssues(issues: readonly LocatedIssue[], path: string): string {
  return issues
    .map((i) => `${where(i, path)}: ${i.severity}: ${i.message}${i.fix ? `\n  fix: ${i.fix}` : ''}\n`)
    .join('');
}

function show(value: unknown): string {
  return value === undefined ? '(unset)' : JSON.stringify(value);
}

export function formatChanges(changes: readonly PathChange[]): string {
  return changes.map((c) => `${formatConfigPath(c.path)}: ${show(c.from)} → ${show(c.to)}\n`).join('');
}

/** A value as typed: JSON5 (numbers, booleans, null, quoted strings, objects, arrays), else the text itself. */
export function parseCliValue(text: string): unknown {
  try {
    return JSON5.parse(text);
  } catch {
    return text;
  }
}

function usage(host: CliHost, message: string): void {
  host.err(`contextscope: ${message}\n`);
  process.exitCode = 2;
}

/** Preview, then (unless --dry-run) save `changes`; prints what happened and sets the exit code. */
export function runChanges(host: CliHost, options: ConfigCliOptions, changes: ConfigChange[]): void {
  const { path, env } = configContext(options);
  let snapshot;
  try {
    snapshot = readConfigSnapshot(path, env);
  } catch (error) {
    return usage(host, `cannot read ${path}: ${errorMessage(error)}`);
  }
  const preview = previewConfig(snapshot, { changes }, env);
  if (preview.refused || !preview.ok) return report(host, options, preview, { written: false, refused: true });
  if (options.dryRun || !preview.changed) return report(host, options, preview, { written: false, refused: false });
  const outcome = saveConfig({ path, baseHash: snapshot.hash, changes }, env);
  if (!outcome.ok) {
    host.err(`contextscope: ${outcome.message}\n`);
    process.exitCode = 1;
    return;
  }
  report(host, options, outcome.preview, { written: outcome.written, refused: false, backupFile: outcome.backupFile });
}

function report(
  host: CliHost,
  options: ConfigCliOptions,
  preview: ConfigPreview,
  result: { written: boolean; refused: boolean; backupFile?: string },
): void {
  if (result.refused) process.exitCode = 1;
  if (options.json) {
    const { text: _text, ...rest } = preview;
    host.out(
      `${JSON.stringify({ ...rest, written: result.written, backupFile: result.backupFile ?? null }, null, 2)}\n`,
    );
    return;
  }
  if (preview.refused) return host.err(`contextscope: refused, nothing written: ${preview.refused}\n`);
  const errors = preview.issues.filter((i) => i.severity === 'error');
  if (result.refused) {
    host.err(
      `contextscope: refused, nothing written: ${preview.path} would have ${errors.length} validation error(s)\n`,
    );
    host.err(formatIssues(errors, preview.path));
    return;
  }
  host.out(formatChanges(preview.changes) || 'nothing to change\n');
  for (const note of preview.notes) host.out(`note: ${note}\n`);
  host.err(formatIssues(preview.issues, preview.path));
  if (options.dryRun && preview.changed) host.out(`${preview.diff}not written (--dry-run)\n`);
  if (result.written)
    host.out(`wrote ${preview.path}${result.backupFile ? ` (previous version: ${result.backupFile})` : ''}\n`);
}

function pathArgument(host: CliHost, text: string): string[] | undefined {
  try {
    return parseConfigPath(text);
  } catch (error) {
    if (error instanceof ConfigPathError) return void usage(host, error.message);
    throw error;
  }
}

function get(host: CliHost, pathText: string | undefined, options: ConfigCliOptions): void {
  const path = pathText === undefined ? [] : pathArgument(host, pathText);
  if (!path) return;
  const { path: file, env } = configContext(options);
  const snapshot = readConfigSnapshot(file, env);
  if (snapshot.syntaxError) return usage(host, `${file}: ${snapshot.issues[0]!.message}`);
  const value = valueAt(snapshot.effective ?? {}, path);
  const owner = snapshot.doc.ok ? includeOwnerOf(snapshot.doc.value, path, snapshot.includes, file) : undefined;
  const from = owner && owner.include !== '$include' ? owner.file : file;
  if (options.json) {
    host.out(
      `${JSON.stringify({ path: formatConfigPath(path), set: value !== undefined, value: value ?? null, file: from }, null, 2)}\n`,
    );
  } else if (value !== undefined) {
    host.out(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
  }
  if (value === undefined) {
    if (!options.json)
      host.err(
        `${formatConfigPath(path)} is not set in ${file}${snapshot.exists ? '' : ' (the file does not exist)'}\n`,
      );
    process.exitCode = 1;
  }
}

function validate(host: CliHost, options: ConfigCliOptions): void {
  const { path, env } = configContext(options);
  const snapshot = readConfigSnapshot(path, env);
  const errors = snapshot.issues.filter((i) => i.severity === 'error').length;
  if (errors > 0) process.exitCode = 1;
  if (options.json) {
    host.out(
      `${JSON.stringify({ path, exists: snapshot.exists, ok: errors === 0, issues: snapshot.issues, includes: snapshot.includes.map(({ text: _t, ...f }) => f) }, null, 2)}\n`,
    );
    return;
  }
  host.out(formatIssues(snapshot.issues, path));
  const warnings = snapshot.issues.length - errors;
  host.out(
    `${path}${snapshot.exists ? '' : ' (does not exist: an empty config)'}: ${errors === 0 ? 'valid' : 'invalid'} — ${errors} error(s), ${warnings} warning(s)${snapshot.includes.length ? `, ${snapshot.includes.length} $include file(s)` : ''}\n`,
  );
}

export function register(program: Command, host: CliHost): void {
  const config = program
    .command('config')
    .description('read and change openclaw.json without losing its comments, validated as OpenClaw validates it');
  withConfigOptions(
    config
      .command('get [path]')
      .description('print the value at a path (e.g. plugins.slots.contextEngine), $include merged'),
  ).action((path: string | undefined, options: ConfigCliOptions) => get(host, path, options));
  withConfigOptions(
    config
      .command('set <path> <value>')
      .description('set a value (read as JSON5, else as a string); refused with exit 1 when validation fails'),
    true,
  ).action((pathText: string, valueText: string, options: ConfigCliOptions) => {
    const path = pathArgument(host, pathText);
    if (path) runChanges(host, options, [{ op: 'set', path, value: parseCliValue(valueText) }]);
  });
  withConfigOptions(config.command('unset <path>').description('remove a value (its default applies)'), true).action(
    (pathText: string, options: ConfigCliOptions) => {
      const path = pathArgument(host, pathText);
      if (path) runChanges(host, options, [{ op: 'unset', path }]);
    },
  );
  withConfigOptions(
    config.command('validate').description('check the config as OpenClaw does (exit 1 on errors)'),
  ).action((options: ConfigCliOptions) => validate(host, options));
  config.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
}

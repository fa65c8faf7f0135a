/**
 * `contextscope plugins list | enable <id> | disable <id> | uninstall <id>`: the plugin entries of openclaw.json,
 * as `openclaw plugins` has them. enable/disable set plugins.entries.<id>.enabled; uninstall resets every slot
 * that names the plugin to its default (legacy / memory-core), unlinks it from plugins.load.paths and marks it
 * uninstalled — its folder is never touched. Same options and exit codes as `contextscope config`.
 */
import type { Command } from 'commander';
import { readConfigSnapshot, valueAt } from '../../config';
import { isPluginLoadable, type DiscoveredPlugin } from '../../plugins';
import type { CliHost } from '../cliHost';
import { configContext, formatIssues, runChanges, withConfigOptions, type ConfigCliOptions } from './config';

interface ListedEntry {
  id: string;
  kind: string[];
  origin: string;
  enabled: boolean;
  disabledReason: string | null;
  loadable: boolean;
  /** the slots that name it */
  slots: string[];
  path: string;
  problems: string[];
}

function describe(plugin: DiscoveredPlugin, slots: unknown): ListedEntry {
  const owned =
    slots && typeof slots === 'object'
      ? Object.entries(slots as Record<string, unknown>)
          .filter(([, v]) => v === plugin.id)
          .map(([k]) => k)
      : [];
  return {
    id: plugin.id,
    kind: [...plugin.kind],
    origin: plugin.origin,
    enabled: plugin.enabled,
    disabledReason: plugin.disabledReason ?? null,
    loadable: isPluginLoadable(plugin),
    slots: owned,
    path: plugin.rootDir,
    problems: [...plugin.errors, ...plugin.configErrors].map((p) => p.message),
  };
}

function list(host: CliHost, options: ConfigCliOptions): void {
  const { path, env } = configContext(options);
  const snapshot = readConfigSnapshot(path, env);
  const slots = valueAt(snapshot.effective ?? {}, ['plugins', 'slots']);
  const entries = snapshot.plugins.map((p) => describe(p, slots));
  if (options.json) {
    host.out(`${JSON.stringify({ config: path, plugins: entries, issues: snapshot.issues }, null, 2)}\n`);
    return;
  }
  for (const e of entries) {
    const state = e.enabled ? 'enabled' : `disabled (${e.disabledReason})`;
    const slotText = e.slots.length ? ` · slot ${e.slots.join(', ')}` : '';
    host.out(
      `${e.id}  [${e.kind.join(', ') || 'no kind'}]  ${e.origin} · ${state}${slotText}${e.loadable ? '' : ' · not loadable'}\n  ${e.path}\n`,
    );
    for (const problem of e.problems) host.out(`  problem: ${problem}\n`);
  }
  if (entries.length === 0) host.out('no plugins found\n');
  host.err(formatIssues(snapshot.issues, path));
}

export function register(program: Command, host: CliHost): void {
  const plugins = program
    .command('plugins')
    .description('list the plugins openclaw.json can use, enable/disable their entries, uninstall them (slots reset)');
  withConfigOptions(plugins.command('list').description('the plugins found, their kind, entry state and slots')).action(
    (options: ConfigCliOptions) => list(host, options),
  );
  withConfigOptions(plugins.command('enable <id>').description('set plugins.entries.<id>.enabled: true'), true).action(
    (id: string, options: ConfigCliOptions) =>
      runChanges(host, options, [{ op: 'setEnabled', pluginId: id, enabled: true }]),
  );
  withConfigOptions(
    plugins.command('disable <id>').description('set plugins.entries.<id>.enabled: false'),
    true,
  ).action((id: string, options: ConfigCliOptions) =>
    runChanges(host, options, [{ op: 'setEnabled', pluginId: id, enabled: false }]),
  );
  withConfigOptions(
    plugins
      .command('uninstall <id>')
      .description('remove the plugin from the config: slots naming it reset to legacy/memory-core (files stay)'),
    true,
  ).action((id: string, options: ConfigCliOptions) => runChanges(host, options, [{ op: 'uninstall', pluginId: id }]));
  plugins.exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2));
}

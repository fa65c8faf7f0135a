import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverPlugins, findStaleConfigEntries } from '../../../src/plugins/discoverPlugins';
import { readPluginPackage } from '../../../src/plugins/readPluginPackage';

const FIXTURES = join(import.meta.dirname, '../../fixtures/plugins');
const fixture = (name: string) => join(FIXTURES, name);
const temps: string[] = [];
function tempDir(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'cs-discovery-')));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** a minimal plugin folder with the given id */
function writePlugin(dir: string, id: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openclaw.plugin.json'), JSON.stringify({ id, configSchema: { type: 'object' } }));
  writeFileSync(join(dir, 'index.cjs'), 'module.exports = () => {};');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: id, openclaw: { extensions: ['./index.cjs'] } }));
  return dir;
}

describe('manifest and package validation', () => {
  it('reports a missing configSchema and an unknown kind with the manifest path and a fix', () => {
    const plugin = readPluginPackage(fixture('loader-bad-manifest'), 'linked');
    expect(plugin.errors.map((e) => [e.code, e.message, e.file])).toEqual([
      ['manifest-invalid', '/configSchema: is required', join(fixture('loader-bad-manifest'), 'openclaw.plugin.json')],
      [
        'manifest-invalid',
        '/kind: must be one of "context-engine", "memory"',
        join(fixture('loader-bad-manifest'), 'openclaw.plugin.json'),
      ],
    ]);
    expect(plugin.errors[0]!.fix).toBe(
      'add "configSchema": {"type": "object", "additionalProperties": false, "properties": {}} (required even when the plugin takes no config)',
    );
    expect(plugin.manifest).toBeUndefined();
  });

  it('reports JSON5 syntax errors with line and column', () => {
    const plugin = readPluginPackage(fixture('loader-bad-json5'), 'linked');
    expect(plugin.errors.map((e) => e.message)).toEqual([
      "openclaw.plugin.json is not valid JSON5: invalid character ',' at 3:35",
    ]);
  });

  it('parses JSON5 manifests (comments, single quotes, trailing commas) and resolves ESM/CJS/TS entries', () => {
    expect(
      readPluginPackage(fixture('loader-esm'), 'linked').entries.map((e) => [e.declared, e.format, e.pluginId]),
    ).toEqual([['./src/index.js', 'esm', 'loader-esm']]);
    expect(readPluginPackage(fixture('loader-cjs'), 'linked').entries.map((e) => e.format)).toEqual(['cjs']);
    expect(readPluginPackage(fixture('loader-ts'), 'linked').entries.map((e) => e.format)).toEqual(['ts']);
    expect(readPluginPackage(fixture('loader-ts'), 'linked').kind).toEqual(['context-engine']);
  });

  it('rejects an entry that climbs out of the package', () => {
    const plugin = readPluginPackage(fixture('loader-escape'), 'linked');
    expect(plugin.entries).toEqual([]);
    expect(plugin.errors.map((e) => [e.code, e.message])).toEqual([
      [
        'entry-escapes-package',
        `entry "../loader-cjs/main.js" points outside the plugin folder (${fixture('loader-cjs/main.js')})`,
      ],
    ]);
  });

  it('rejects an entry that is a symlink to a file outside the package', () => {
    const root = tempDir();
    const outside = join(root, 'outside.js');
    writeFileSync(outside, 'module.exports = () => {};');
    const dir = writePlugin(join(root, 'linky'), 'linky');
    symlinkSync(outside, join(dir, 'entry.js'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ openclaw: { extensions: ['./entry.js'] } }));
    const plugin = readPluginPackage(dir, 'linked');
    expect(plugin.errors.map((e) => [e.code, e.message])).toEqual([
      [
        'entry-symlink-escapes',
        `entry "./entry.js" is a symlink that resolves outside the plugin folder (→ ${outside})`,
      ],
    ]);
  });

  it('says to build the plugin when an entry under dist/ is missing', () => {
    const dir = writePlugin(join(tempDir(), 'unbuilt'), 'unbuilt');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ openclaw: { extensions: ['./dist/index.js'] } }));
    const [problem] = readPluginPackage(dir, 'linked').errors;
    expect(problem!.code).toBe('entry-not-found');
    expect(problem!.fix).toBe(`build the plugin first (e.g. npm run build in ${dir}); its manifest points at dist/`);
  });
});

describe('plugin config validation', () => {
  it('reports every problem as a JSON path after applying defaults', () => {
    const plugin = readPluginPackage(fixture('loader-schema'), 'linked', {
      plugins: { entries: { 'loader-schema': { config: { budgetShare: 1.5, endpoint: 'not a uri', color: 'red' } } } },
    });
    expect(plugin.configErrors.map((e) => e.message).sort()).toEqual([
      '/apiKey: is required',
      '/budgetShare: must be <= 1',
      '/color: is not allowed (the schema does not define this property and has additionalProperties: false)',
      '/endpoint: must match format "uri"',
    ]);
    expect(plugin.configErrors[0]!.file).toBe('plugins.entries.loader-schema.config');
  });

  it('applies schema defaults to a valid config without touching the input', () => {
    const input = { apiKey: 'k' };
    const plugin = readPluginPackage(fixture('loader-schema'), 'linked', {
      plugins: { entries: { 'loader-schema': { config: input } } },
    });
    expect(plugin.configErrors).toEqual([]);
    expect(plugin.config).toEqual({ apiKey: 'k', budgetShare: 0.5, mode: 'window' });
    expect(input).toEqual({ apiKey: 'k' });
  });

  it('reports a schema that does not compile', () => {
    const dir = writePlugin(join(tempDir(), 'badschema'), 'badschema');
    writeFileSync(
      join(dir, 'openclaw.plugin.json'),
      JSON.stringify({ id: 'badschema', configSchema: { type: 'nonsense' } }),
    );
    const [problem] = readPluginPackage(dir, 'linked').errors;
    expect(problem!.code).toBe('config-schema-invalid');
    expect(problem!.path).toBe('/configSchema');
    expect(problem!.message).toMatch(
      /^configSchema is not a valid JSON Schema: schema is invalid: data\/type must be equal to one of the allowed values/,
    );
  });
});

describe('discovery roots and precedence', () => {
  it('keeps the higher-precedence copy of an id and records the shadowed ones as warnings', () => {
    const root = tempDir();
    const configCopy = writePlugin(join(root, 'cfg', 'dup'), 'dup');
    const bundledCopy = writePlugin(join(root, 'bundled', 'dup'), 'dup');
    const workspaceCopy = writePlugin(join(root, 'ws', '.openclaw', 'extensions', 'dup'), 'dup');
    const globalCopy = writePlugin(join(root, 'state', 'extensions', 'dup'), 'dup');
    const plugins = discoverPlugins({
      config: { plugins: { load: { paths: [configCopy] } } },
      bundledDir: join(root, 'bundled'),
      workspaceDir: join(root, 'ws'),
      stateDir: join(root, 'state'),
    });
    expect(plugins.map((p) => [p.id, p.origin, p.rootDir])).toEqual([['dup', 'config', configCopy]]);
    expect(plugins[0]!.shadowed).toEqual([
      { rootDir: bundledCopy, origin: 'bundled' },
      { rootDir: workspaceCopy, origin: 'workspace' },
      { rootDir: globalCopy, origin: 'global' },
    ]);
    expect(plugins[0]!.warnings.map((w) => w.message)).toEqual([
      `duplicate plugin id "dup": ${bundledCopy} (bundled) is shadowed by ${configCopy} (config)`,
      `duplicate plugin id "dup": ${workspaceCopy} (workspace) is shadowed by ${configCopy} (config)`,
      `duplicate plugin id "dup": ${globalCopy} (global) is shadowed by ${configCopy} (config)`,
    ]);
  });

  it('ranks bundled over workspace over an untracked global install, and a tracked global install over bundled', () => {
    const root = tempDir();
    writePlugin(join(root, 'bundled', 'p'), 'p');
    writePlugin(join(root, 'ws', '.openclaw', 'extensions', 'p'), 'p');
    writePlugin(join(root, 'ws', '.openclaw', 'extensions', 'q'), 'q');
    writePlugin(join(root, 'state', 'extensions', 'q'), 'q');
    writePlugin(join(root, 'state', 'extensions', 'p'), 'p');
    const base = { bundledDir: join(root, 'bundled'), workspaceDir: join(root, 'ws'), stateDir: join(root, 'state') };
    const untracked = discoverPlugins(base);
    expect(untracked.map((p) => [p.id, p.origin])).toEqual([
      ['p', 'bundled'],
      ['q', 'workspace'],
    ]);
    const tracked = discoverPlugins({ ...base, config: { plugins: { installs: { p: { source: 'npm' } } } } });
    expect(tracked.map((p) => [p.id, p.origin])).toEqual([
      ['p', 'global'],
      ['q', 'workspace'],
    ]);
  });

  it('uses OPENCLAW_STATE_DIR for the global root, links extra paths without copying, and reports missing load paths', () => {
    const root = tempDir();
    writePlugin(join(root, 'custom-state', 'extensions', 'g'), 'g');
    const linked = writePlugin(join(root, 'elsewhere', 'linked-one'), 'linked-one');
    const plugins = discoverPlugins({
      env: { OPENCLAW_STATE_DIR: join(root, 'custom-state'), HOME: join(root, 'home') },
      bundledDir: false,
      extraPaths: [linked],
      config: { plugins: { load: { paths: [join(root, 'missing')] } } },
    });
    expect(plugins.map((p) => [p.id, p.origin, p.rootDir])).toEqual([
      ['missing', 'config', join(root, 'missing')],
      ['linked-one', 'linked', linked],
      ['g', 'global', join(root, 'custom-state', 'extensions', 'g')],
    ]);
    expect(plugins[0]!.errors.map((e) => e.message)).toEqual([
      `${join(root, 'missing')} (from plugins.load.paths) does not exist or is not a folder`,
    ]);
  });

  it('marks disabled plugins and warns that their config is kept', () => {
    const root = tempDir();
    writePlugin(join(root, 'ext', 'off'), 'off');
    const [plugin] = discoverPlugins({
      bundledDir: false,
      stateDir: join(root, 'none'),
      extraPaths: [join(root, 'ext')],
      config: { plugins: { entries: { off: { enabled: false, config: { a: 1 } } } } },
    });
    expect(plugin!.enabled).toBe(false);
    expect(plugin!.disabledReason).toBe('disabled by plugins.entries.off.enabled: false');
    expect(plugin!.warnings.map((w) => w.code)).toEqual(['plugin-disabled-config-kept']);
  });

  it('finds stale plugins.entries, allow and deny ids but not uninstall markers', () => {
    const plugins = discoverPlugins({
      bundledDir: false,
      stateDir: join(tempDir(), 'none'),
      extraPaths: [fixture('loader-cjs')],
    });
    const stale = findStaleConfigEntries(
      {
        plugins: {
          entries: { 'loader-cjs': { enabled: true }, ghost: { config: {} }, removed: { enabled: false } },
          allow: ['loader-cjs', 'phantom'],
          deny: ['spectre'],
        },
      },
      plugins,
    );
    expect(stale).toEqual([
      { key: 'plugins.entries.ghost', id: 'ghost' },
      { key: 'plugins.allow', id: 'phantom' },
      { key: 'plugins.deny', id: 'spectre' },
    ]);
  });
});

/**
 * openclaw.json checked as OpenClaw checks it before anything is saved (src/config/validateConfig.ts): each rule,
 * with the severity, code and path a save is refused or warned on.
 */
import { describe, expect, it } from 'vitest';
import { validateOpenClawConfig, type ConfigIssue } from '../../../src/config/validateConfig';
import type { DiscoveredPlugin } from '../../../src/plugins';

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: { budgetShare: { type: 'number', maximum: 1, default: 0.5 } },
};

function plugin(id: string, extra: Partial<DiscoveredPlugin> = {}): DiscoveredPlugin {
  return {
    id,
    rootDir: `/plugins/${id}`,
    realPath: `/plugins/${id}`,
    origin: 'config',
    manifestPath: `/plugins/${id}/openclaw.plugin.json`,
    manifest: { id, configSchema: SCHEMA, kind: 'context-engine' },
    kind: ['context-engine'],
    entries: [],
    config: {},
    configErrors: [],
    enabled: true,
    errors: [],
    warnings: [],
    shadowed: [],
    ...extra,
  } as DiscoveredPlugin;
}

const brief = (issues: ConfigIssue[]) => issues.map((i) => `${i.severity} ${i.code} ${i.path.join('.')}`);

describe('validateOpenClawConfig', () => {
  it('refuses a config that is not an object, saying what it is', () => {
    expect(validateOpenClawConfig([], { plugins: [] })[0]).toMatchObject({
      severity: 'error',
      code: 'not-an-object',
      message: 'the config must be an object, not an array',
    });
    expect(validateOpenClawConfig('x', { plugins: [] })[0]!.message).toBe('the config must be an object, not string');
  });

  it('accepts a valid config without a word', () => {
    const config = {
      plugins: { slots: { contextEngine: 'engine-a' }, entries: { 'engine-a': { config: { budgetShare: 1 } } } },
    };
    expect(validateOpenClawConfig(config, { plugins: [plugin('engine-a')] })).toEqual([]);
  });

  it("checks an enabled plugin's config against its configSchema, at the offending key", () => {
    const config = { plugins: { entries: { 'engine-a': { config: { budgetShare: 2 } } } } };
    const [issue] = validateOpenClawConfig(config, { plugins: [plugin('engine-a')] });
    expect(issue).toMatchObject({
      severity: 'error',
      code: 'config-invalid',
      path: ['plugins', 'entries', 'engine-a', 'config', 'budgetShare'],
    });
    expect(issue!.message).toContain('(configSchema of engine-a)');
  });

  it('checks the config kept for a disabled plugin too, and warns that it is not used', () => {
    const config = { plugins: { entries: { 'engine-a': { enabled: false, config: { budgetShare: 2 } } } } };
    const disabled = plugin('engine-a', {
      enabled: false,
      disabledReason: 'disabled by plugins.entries.engine-a.enabled: false',
    });
    expect(brief(validateOpenClawConfig(config, { plugins: [disabled] }))).toEqual([
      'error config-invalid plugins.entries.engine-a.config.budgetShare',
      'warning disabled-config-kept plugins.entries.engine-a.config',
    ]);
  });

  it('leaves a disabled plugin without config alone', () => {
    const config = { plugins: { entries: { 'engine-a': { enabled: false } } } };
    expect(validateOpenClawConfig(config, { plugins: [plugin('engine-a', { enabled: false })] })).toEqual([]);
  });

  it('checks an enabled plugin with no config against its schema (required keys)', () => {
    const strict = plugin('engine-a', {
      manifest: { id: 'engine-a', configSchema: { type: 'object', required: ['apiKey'] } },
    });
    expect(brief(validateOpenClawConfig({}, { plugins: [strict] }))).toEqual([
      'error config-invalid plugins.entries.engine-a.config.apiKey',
    ]);
  });

  it('warns when a plugin schema does not compile, naming the manifest file', () => {
    const broken = plugin('engine-a', { manifest: { id: 'engine-a', configSchema: { type: 'no-such-type' } } });
    const [issue] = validateOpenClawConfig(
      { plugins: { entries: { 'engine-a': { config: {} } } } },
      { plugins: [broken] },
    );
    expect(issue).toMatchObject({
      severity: 'warning',
      code: 'plugin-schema-invalid',
      file: '/plugins/engine-a/openclaw.plugin.json',
    });
  });

  it('refuses a config of the wrong shape where ContextScope edits it', () => {
    const issues = validateOpenClawConfig({ plugins: { slots: { contextEngine: 7 } } }, { plugins: [] });
    expect(brief(issues)).toContain('error shape-invalid plugins.slots.contextEngine');
  });

  it('warns on entries, allow and deny ids that name no plugin, but not on an uninstall marker', () => {
    const config = {
      plugins: {
        entries: { ghost: { config: {} }, removed: { enabled: false } },
        allow: ['nobody'],
        deny: ['engine-a'],
      },
    };
    expect(brief(validateOpenClawConfig(config, { plugins: [plugin('engine-a')] }))).toEqual([
      'warning stale-entry plugins.entries.ghost',
      'warning stale-entry plugins.allow',
    ]);
  });

  describe('the memory slot', () => {
    it('refuses a memory slot that names no memory plugin', () => {
      const issues = validateOpenClawConfig(
        { plugins: { slots: { memory: 'engine-a' } } },
        { plugins: [plugin('engine-a')] },
      );
      expect(brief(issues)).toEqual(['error slot-memory-unknown plugins.slots.memory']);
      expect(issues[0]!.message).toBe(
        'plugins.slots.memory names "engine-a", which is no memory plugin: OpenClaw refuses this config',
      );
    });

    it('accepts memory-core, none and an installed memory plugin; warns on a missing memory-lancedb', () => {
      const memory = plugin('mem', { kind: ['memory'], manifest: { id: 'mem', configSchema: {}, kind: 'memory' } });
      for (const value of ['memory-core', 'none', 'mem']) {
        expect(validateOpenClawConfig({ plugins: { slots: { memory: value } } }, { plugins: [memory] }), value).toEqual(
          [],
        );
      }
      const lancedb = validateOpenClawConfig(
        { plugins: { slots: { 'memory.recall': 'memory-lancedb' } } },
        { plugins: [memory] },
      );
      expect(brief(lancedb)).toEqual(['warning slot-memory-lancedb plugins.slots.memory.recall']);
      expect(lancedb[0]!.fix).toBe(
        'set it to memory-core (the default), none, or the id of an installed memory plugin (mem)',
      );
    });
  });

  describe('the context-engine slot', () => {
    it('is quiet for legacy, blank, and an engine an enabled plugin registers', () => {
      for (const slot of ['legacy', ' legacy ', '', 'engine-a']) {
        expect(
          validateOpenClawConfig({ plugins: { slots: { contextEngine: slot } } }, { plugins: [plugin('engine-a')] }),
        ).toEqual([]);
      }
    });

    it('warns, explaining the fallback, when the engine is unknown, listing the engines there are', () => {
      const [issue] = validateOpenClawConfig(
        { plugins: { slots: { contextEngine: 'nope' } } },
        { plugins: [plugin('engine-a')], engines: { 'engine-a': ['tree', 'window'] } },
      );
      expect(issue).toMatchObject({
        severity: 'warning',
        code: 'slot-engine-unknown',
        fix: 'choose one of legacy, tree, window, or install the plugin that registers "nope"',
      });
      expect(issue!.message).toContain('every turn runs on the built-in "legacy" engine instead');
    });

    it("warns when the engine's plugin is disabled, naming how to enable it", () => {
      const [issue] = validateOpenClawConfig(
        { plugins: { slots: { contextEngine: 'tree' } } },
        { plugins: [plugin('engine-a', { enabled: false })], engines: { 'engine-a': ['tree'] } },
      );
      expect(issue).toMatchObject({
        code: 'slot-engine-disabled',
        fix: 'enable it: plugins.entries.engine-a.enabled: true',
      });
    });
  });

  it('lists errors before warnings', () => {
    const config = { plugins: { slots: { contextEngine: 'nope', memory: 'bad' }, entries: { ghost: { config: {} } } } };
    expect(validateOpenClawConfig(config, { plugins: [] }).map((i) => i.severity)).toEqual([
      'error',
      'warning',
      'warning',
    ]);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChanges, readConfigSnapshot, snapshotOfText, type LocatedIssue } from '../../../src/config';
import { cleanTemps, copyFixture, tempDir, testEnvironment } from './configHelpers';

afterEach(cleanTemps);

const brief = (issues: LocatedIssue[]) => issues.map((i) => `${i.severity} ${i.code} ${i.path.join('.')}`);

describe('reading openclaw.json', () => {
  it('a real shape with comments and $include: the included file is merged and listed, nothing to complain about', () => {
    const dir = copyFixture('realistic');
    const snapshot = readConfigSnapshot(join(dir, 'openclaw.json'), testEnvironment());
    expect(snapshot.exists).toBe(true);
    expect(snapshot.readOnly).toBeUndefined();
    expect((snapshot.effective as any).channels).toEqual({ telegram: { enabled: true, dmPolicy: 'pairing' } });
    expect(snapshot.includes.map((f) => [f.at.join('.'), f.include, f.file, f.error])).toEqual([
      ['channels', './channels.json5', join(dir, 'channels.json5'), undefined],
    ]);
    expect(snapshot.includes[0]!.text).toContain('ContextScope shows it read-only');
    expect(brief(snapshot.issues)).toEqual([]);
    expect(snapshot.plugins.map((p) => p.id).sort()).toEqual(['faulty-engines', 'recent-window', 'summary-tree']);
  });

  it('a file that is not JSON5 opens in raw mode: the error with line and column, and no form edit is written', () => {
    const dir = tempDir();
    const file = join(dir, 'openclaw.json');
    writeFileSync(file, '{\n  plugins: {\n    slots: { contextEngine: "x" }\n  \n');
    const snapshot = readConfigSnapshot(file, testEnvironment());
    expect(snapshot.syntaxError).toEqual({ message: 'invalid end of input', line: 5, column: 1 });
    expect(snapshot.issues).toMatchObject([{ severity: 'error', code: 'syntax', line: 5, column: 1 }]);
    expect(snapshot.readOnly).toMatch(/is not valid JSON5 \(line 5, column 1\): fix it in the text editor/);
    expect(() =>
      applyChanges(snapshot, [{ op: 'selectSlot', slot: 'contextEngine', value: 'legacy' }], testEnvironment()),
    ).toThrow(snapshot.readOnly!);
  });

  it('a missing file is an empty config whose first change creates it', () => {
    const file = join(tempDir(), 'openclaw.json');
    const snapshot = readConfigSnapshot(file, testEnvironment());
    expect([snapshot.exists, snapshot.hash, snapshot.text]).toEqual([false, 'absent', '']);
    const { text } = applyChanges(snapshot, [{ op: 'selectSlot', slot: 'contextEngine', value: 'recent-window' }]);
    expect(text).toBe('{\n  "plugins": {\n    "slots": {\n      "contextEngine": "recent-window"\n    }\n  }\n}\n');
  });

  it('an edit that would land in an $include file is refused, naming the file', () => {
    const dir = tempDir();
    const file = join(dir, 'openclaw.json');
    writeFileSync(file, '{\n  // plugin settings are shared\n  plugins: { $include: "./plugins.json5" },\n}\n');
    writeFileSync(join(dir, 'plugins.json5'), '{ slots: { contextEngine: "legacy" }, entries: {} }\n');
    const snapshot = readConfigSnapshot(file, testEnvironment());
    expect((snapshot.effective as any).plugins.slots.contextEngine).toBe('legacy');
    expect(() => applyChanges(snapshot, [{ op: 'selectSlot', slot: 'contextEngine', value: 'recent-window' }])).toThrow(
      `plugins.slots.contextEngine comes from the $include file ${join(dir, 'plugins.json5')} (included at plugins as "./plugins.json5"); ContextScope shows included files read-only: change it in that file`,
    );
    expect(() => applyChanges(snapshot, [{ op: 'unset', path: ['plugins'] }])).toThrow(
      'plugins holds an $include (at plugins): change $include in the text editor',
    );
    // a key the include does not give lands in openclaw.json itself
    const { text } = applyChanges(snapshot, [{ op: 'set', path: ['plugins', 'enabled'], value: true }]);
    expect(text).toBe(
      '{\n  // plugin settings are shared\n  plugins: { $include: "./plugins.json5", enabled: true },\n}\n',
    );
    expect(readFileSync(join(dir, 'plugins.json5'), 'utf8')).toBe(
      '{ slots: { contextEngine: "legacy" }, entries: {} }\n',
    );
  });

  it('a broken $include is an error at its path; a loop is found', () => {
    const dir = tempDir();
    const file = join(dir, 'openclaw.json');
    writeFileSync(file, '{ a: { $include: "./missing.json5" }, b: { $include: "./loop.json5" } }');
    writeFileSync(join(dir, 'loop.json5'), '{ again: { $include: "./openclaw.json" } }');
    const snapshot = readConfigSnapshot(file, testEnvironment());
    expect(snapshot.issues.map((i) => [i.code, i.path.join('.'), i.message.replace(dir, '<dir>')])).toEqual([
      [
        'include-invalid',
        'a.$include',
        expect.stringMatching(/^\$include "\.\/missing\.json5" at a: cannot read <dir>\/missing\.json5: ENOENT/),
      ],
      ['include-invalid', 'again.$include', expect.stringContaining('$include loop: ')],
    ]);
  });
});

describe('$include as OpenClaw merges it', () => {
  it('a list deep-merges in order (arrays concatenate), keys beside $include win, a lone include replaces the object', async () => {
    const { resolveIncludes } = await import('../../../src/config');
    const dir = tempDir();
    writeFileSync(join(dir, 'a.json5'), '{ load: { paths: ["./a"] }, slots: { contextEngine: "a" } }');
    writeFileSync(join(dir, 'b.json5'), '{ load: { paths: ["./b"] }, slots: { memory: "none" } }');
    writeFileSync(join(dir, 'list.json5'), '["x", "y"]');
    const config = {
      plugins: { $include: ['./a.json5', './b.json5'], slots: { contextEngine: 'mine' } },
      list: { $include: './list.json5' },
      bad: { $include: './list.json5', extra: 1 },
      escape: { $include: '../outside.json5' },
    };
    const { value, files } = resolveIncludes(config, join(dir, 'openclaw.json'), {});
    expect(value).toEqual({
      plugins: { load: { paths: ['./a', './b'] }, slots: { contextEngine: 'mine', memory: 'none' } },
      list: ['x', 'y'],
      bad: { extra: 1 },
      escape: {},
    });
    expect(files.filter((f) => f.error).map((f) => f.error)).toEqual([
      'keys next to $include at bad need the included content to be an object',
      `$include path escapes the config folder: ../outside.json5 (allowed: ${dir}; more with $OPENCLAW_INCLUDE_ROOTS)`,
    ]);
  });
});

describe('validation as OpenClaw validates', () => {
  const validate = (config: unknown) =>
    snapshotOfText(join(tempDir(), 'openclaw.json'), JSON.stringify(config, null, 2), testEnvironment()).issues;

  it("a value the plugin's configSchema refuses is an error naming the config path and the rule", () => {
    const issues = validate({
      plugins: { entries: { 'recent-window': { config: { budgetShare: 2, minRecentTurns: 'one' } } } },
    });
    expect(issues.map((i) => [i.severity, i.message, i.line])).toEqual([
      ['error', 'plugins.entries.recent-window.config.budgetShare must be <= 1 (configSchema of recent-window)', 6],
      [
        'error',
        'plugins.entries.recent-window.config.minRecentTurns must be integer (configSchema of recent-window)',
        7,
      ],
    ]);
  });

  it('unknown entries warn (stale config entry ignored); {enabled:false} for an unknown id is an uninstall marker', () => {
    const issues = validate({
      plugins: { entries: { gone: { enabled: true }, removed: { enabled: false } }, allow: ['nope'] },
    });
    expect(brief(issues)).toEqual(['warning stale-entry plugins.entries.gone', 'warning stale-entry plugins.allow']);
    expect(issues[0]!.message).toBe('plugins.entries.gone names no discovered plugin: stale config entry ignored');
  });

  it('an unknown memory slot is an error (memory-lancedb only warns); core and none are fine', () => {
    expect(brief(validate({ plugins: { slots: { memory: 'mem-x' } } }))).toEqual([
      'error slot-memory-unknown plugins.slots.memory',
    ]);
    expect(brief(validate({ plugins: { slots: { memory: 'memory-lancedb' } } }))).toEqual([
      'warning slot-memory-lancedb plugins.slots.memory',
    ]);
    expect(validate({ plugins: { slots: { memory: 'memory-core', 'memory.recall': 'none' } } })).toEqual([]);
  });

  it('a context-engine slot no discovered plugin registers warns, explaining the fallback to legacy', () => {
    const [issue, ...rest] = validate({ plugins: { slots: { contextEngine: 'lossless-claw' } } });
    expect(rest).toEqual([]);
    expect(issue).toMatchObject({
      severity: 'warning',
      code: 'slot-engine-unknown',
      path: ['plugins', 'slots', 'contextEngine'],
    });
    expect(issue!.message).toBe(
      'plugins.slots.contextEngine names "lossless-claw", which no discovered plugin registers. OpenClaw accepts this config, but at run time the engine cannot be resolved: it is quarantined (operation "resolve") and every turn runs on the built-in "legacy" engine instead',
    );
    expect(issue!.fix).toBe(
      'choose one of legacy, faulty-engines, recent-window, summary-tree, or install the plugin that registers "lossless-claw"',
    );
    expect(validate({ plugins: { slots: { contextEngine: 'recent-window' } } })).toEqual([]);
    expect(
      brief(
        validate({
          plugins: { slots: { contextEngine: 'summary-tree' }, entries: { 'summary-tree': { enabled: false } } },
        }),
      ),
    ).toEqual(['warning slot-engine-disabled plugins.slots.contextEngine']);
  });

  it('the compaction settings and the context window must have their shape', () => {
    const issues = validate({
      agents: { defaults: { contextTokens: 0, compaction: { mode: 'fast', reserveTokens: -1 } } },
    });
    expect(issues.map((i) => i.message)).toEqual([
      'agents.defaults.compaction.mode must be one of "default", "safeguard"',
      'agents.defaults.compaction.reserveTokens must be >= 0',
      'agents.defaults.contextTokens must be >= 1',
    ]);
  });
});

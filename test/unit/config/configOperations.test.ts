import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import JSON5 from 'json5';
import { afterEach, describe, expect, it } from 'vitest';
import { applyChanges, readConfigSnapshot, type ConfigChange } from '../../../src/config';
import { cleanTemps, copyFixture, testEnvironment } from './configHelpers';

afterEach(cleanTemps);

function realistic() {
  const dir = copyFixture('realistic');
  const file = join(dir, 'openclaw.json');
  const env = testEnvironment();
  const before = readFileSync(file, 'utf8');
  const apply = (...changes: ConfigChange[]) => {
    const { text, notes } = applyChanges(readConfigSnapshot(file, env), changes, env);
    return { text, notes, value: JSON5.parse(text), removedLines: removed(before, text) };
  };
  return { file, before, apply };
}

/** lines of `before` no longer in `after` (comments that vanished would show here) */
function removed(before: string, after: string): string[] {
  const left = after.split('\n');
  return before.split('\n').filter((line) => {
    const at = left.indexOf(line);
    if (at === -1) return true;
    left.splice(at, 1);
    return false;
  });
}

describe('operations as OpenClaw has them', () => {
  it('selecting a context engine writes the slot and enables its plugin (exclusive slot selection)', () => {
    const { apply } = realistic();
    const result = apply({ op: 'selectSlot', slot: 'contextEngine', value: 'summary-tree' });
    expect(result.value.plugins.slots.contextEngine).toBe('summary-tree');
    expect(result.value.plugins.entries['summary-tree']).toEqual({ enabled: true });
    expect(result.notes).toEqual(['summary-tree is enabled: it owns plugins.slots.contextEngine now']);
  });

  it("switching away from a plugin's engine disables that plugin unless it owns another slot", () => {
    const { apply } = realistic();
    const result = apply(
      { op: 'selectSlot', slot: 'contextEngine', value: 'recent-window' },
      { op: 'selectSlot', slot: 'contextEngine', value: 'summary-tree' },
    );
    expect(result.value.plugins.entries['recent-window'].enabled).toBe(false);
    expect(result.value.plugins.entries['recent-window'].config).toEqual({ budgetShare: 0.8, minRecentTurns: 1 });
    expect(result.notes.at(-1)).toBe(
      'recent-window is disabled: it owned plugins.slots.contextEngine and owns no other slot (as OpenClaw’s exclusive slot selection does)'.replace(
        '’',
        "'",
      ),
    );
  });

  it('uninstalling the plugin the slot names resets the slot to legacy (conformance 61); files stay', () => {
    const { apply } = realistic();
    const result = apply(
      { op: 'selectSlot', slot: 'contextEngine', value: 'recent-window' },
      { op: 'uninstall', pluginId: 'recent-window' },
    );
    expect(result.value.plugins.slots.contextEngine).toBe('legacy');
    // found in the bundled root, so the entry becomes OpenClaw's uninstall marker
    expect(result.value.plugins.entries['recent-window']).toEqual({ enabled: false });
    expect(result.notes[0]).toBe('plugins.slots.contextEngine was "recent-window"; it is reset to "legacy"');
    expect(result.notes.at(-1)).toMatch(
      /^the plugin's files stay in .*resources\/plugins\/recent-window; delete the folder yourself/,
    );
  });

  it("a plugin's config is replaced field by field: untouched fields keep their comments; left-out fields go back to defaults", () => {
    const { apply } = realistic();
    const result = apply({
      op: 'setPluginConfig',
      pluginId: 'recent-window',
      config: { minRecentTurns: 3, memoryNote: 'hi' },
    });
    expect(result.value.plugins.entries['recent-window'].config).toEqual({ minRecentTurns: 3, memoryNote: 'hi' });
    expect(result.text).toContain('          /* always keep the newest turn */\n          minRecentTurns: 3,\n');
    expect(result.removedLines).toEqual(['          budgetShare: 0.8,', '          minRecentTurns: 1,']);
  });

  it('enable/disable, compaction settings and the context window are path edits; null removes a setting', () => {
    const { apply } = realistic();
    const result = apply(
      { op: 'setEnabled', pluginId: 'recent-window', enabled: false },
      {
        op: 'setCompaction',
        settings: { reserveTokens: 24000, keepRecentTokens: 8000, reserveTokensFloor: null, mode: 'default' },
      },
      { op: 'setContextWindow', tokens: 64000 },
    );
    expect(result.value.plugins.entries['recent-window'].enabled).toBe(false);
    expect(result.value.agents.defaults.compaction).toEqual({
      mode: 'default',
      reserveTokens: 24000,
      keepRecentTokens: 8000,
    });
    expect(result.value.agents.defaults.contextTokens).toBe(64000);
    expect(result.removedLines.sort()).toEqual([
      '        enabled: true,',
      '        mode: "safeguard", // summaries stay short',
      '        reserveTokensFloor: 20000,',
    ]);
    expect(result.text).toContain('        mode: "default", // summaries stay short\n');
  });

  it('names what it cannot find', () => {
    const { apply } = realistic();
    expect(() => apply({ op: 'uninstall', pluginId: 'lossless-claw' })).toThrow(
      'no plugin "lossless-claw" was found (found: faulty-engines, recent-window, summary-tree); check the id or the plugin folders (plugins.load.paths, ~/.openclaw/extensions)',
    );
    expect(() => apply({ op: 'selectSlot', slot: 'tools', value: 'x' })).toThrow(
      '"tools" is not a slot: use contextEngine, memory or memory.<role>',
    );
  });
});

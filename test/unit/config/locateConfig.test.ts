import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { locateOpenClawConfig, readOpenClawConfigFile } from '../../../src/config';

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-config-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('locateOpenClawConfig', () => {
  it('takes the explicit file first, then $OPENCLAW_CONFIG_PATH, then <state dir>/openclaw.json when it exists', () => {
    const state = tempDir();
    const env = { OPENCLAW_CONFIG_PATH: ' other.json ' };
    expect(locateOpenClawConfig('mine.json', state, env)).toBe(resolve('mine.json'));
    expect(locateOpenClawConfig(undefined, state, env)).toBe(resolve('other.json'));
    expect(locateOpenClawConfig(undefined, state, {})).toBeUndefined();
    writeFileSync(join(state, 'openclaw.json'), '{}');
    expect(locateOpenClawConfig(undefined, state, { OPENCLAW_CONFIG_PATH: '  ' })).toBe(join(state, 'openclaw.json'));
  });
});

describe('readOpenClawConfigFile', () => {
  it('reads JSON5 and says what to fix when the file is missing, not JSON5 or not an object', () => {
    const dir = tempDir();
    const good = join(dir, 'good.json');
    writeFileSync(good, '// comment\n{ plugins: { slots: { contextEngine: "x" } } }\n');
    expect(readOpenClawConfigFile(good)).toEqual({ plugins: { slots: { contextEngine: 'x' } } });

    const missing = join(dir, 'missing.json');
    expect(() => readOpenClawConfigFile(missing)).toThrow(`cannot read the OpenClaw config ${missing}: `);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{ plugins: ');
    expect(() => readOpenClawConfigFile(bad)).toThrow(/is not valid JSON5: .*Fix the syntax at that position\.$/);
    const list = join(dir, 'list.json');
    writeFileSync(list, '[]');
    expect(() => readOpenClawConfigFile(list)).toThrow(
      `${list} must contain a JSON object (the OpenClaw config), not an array.`,
    );
  });
});

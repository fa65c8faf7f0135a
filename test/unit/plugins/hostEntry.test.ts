import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveEngineHostEntry } from '../../../src/plugins/host/hostEntry';

const ROOT = join(import.meta.dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'cs-host-entry-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('resolveEngineHostEntry', () => {
  it('an explicit built entry in a checkout uses the source SDK shims when no copy sits beside it', () => {
    const entry = join(ROOT, 'out', 'node', 'engine-host.mjs');
    const resolved = resolveEngineHostEntry({ entry });
    expect(resolved).toMatchObject({ entry, execArgv: [] });
    expect(resolved.shimDir).toBe(
      existsSync(join(ROOT, 'out', 'node', 'plugin-sdk'))
        ? join(ROOT, 'out', 'node', 'plugin-sdk')
        : join(ROOT, 'src', 'plugins', 'sdk', 'shims'),
    );
  });

  it('an explicit entry with a plugin-sdk copy beside it uses the copy; a TypeScript entry runs through tsx', () => {
    const bundle = join(work, 'node');
    mkdirSync(join(bundle, 'plugin-sdk'), { recursive: true });
    writeFileSync(join(bundle, 'engine-host.mjs'), '');
    expect(resolveEngineHostEntry({ entry: join(bundle, 'engine-host.mjs') }).shimDir).toBe(join(bundle, 'plugin-sdk'));
    const source = resolveEngineHostEntry({ entry: join(ROOT, 'src', 'plugins', 'host', 'engineHostMain.ts') });
    expect(source.execArgv[0]).toBe('--import');
  });

  it('$CONTEXTSCOPE_ENGINE_HOST names the entry when none is passed; without it the sources run through tsx', () => {
    const entry = join(ROOT, 'out', 'node', 'engine-host.mjs');
    expect(resolveEngineHostEntry({}, { CONTEXTSCOPE_ENGINE_HOST: entry })).toMatchObject({ entry, execArgv: [] });
    const passed = join(work, 'node', 'engine-host.mjs');
    expect(resolveEngineHostEntry({ entry: passed }, { CONTEXTSCOPE_ENGINE_HOST: entry }).entry).toBe(passed);
    const source = resolveEngineHostEntry({}, {});
    expect(source.entry).toBe(join(ROOT, 'src', 'plugins', 'host', 'engineHostMain.ts'));
    expect(source.execArgv[0]).toBe('--import');
  });
});

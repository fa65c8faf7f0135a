import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { buildPluginEnv, prepareLaneDirs, resolveEngineNodePath } from '../../../src/plugins/host/laneEnvironment';

const dirs = { home: '/lane/home', stateDir: '/lane/home/.openclaw', tmpDir: '/lane/tmp', cwd: '/lane/work' };

describe('plugin environment', () => {
  it('passes only allow-listed variables plus the lane folders and explicit extras', () => {
    const env = buildPluginEnv({
      dirs,
      parentEnv: {
        PATH: '/usr/bin',
        LANG: 'C.UTF-8',
        TZ: 'UTC',
        HOME: '/root',
        OPENAI_API_KEY: 'sk-secret',
        NODE_OPTIONS: '--inspect',
        AWS_SECRET: 'x',
      },
      extra: { PLUGIN_TOKEN: 't' },
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      HOME: '/lane/home',
      USERPROFILE: '/lane/home',
      OPENCLAW_STATE_DIR: '/lane/home/.openclaw',
      TMPDIR: '/lane/tmp',
      TMP: '/lane/tmp',
      TEMP: '/lane/tmp',
      PLUGIN_TOKEN: 't',
    });
  });

  it('strips NODE_OPTIONS even when passed explicitly', () => {
    const env = buildPluginEnv({ dirs, parentEnv: {}, extra: { NODE_OPTIONS: '--require evil.js', NODE_PATH: '/x' } });
    expect('NODE_OPTIONS' in env).toBe(false);
    expect('NODE_PATH' in env).toBe(false);
  });

  it('creates temporary lane folders and removes only those on cleanup', () => {
    const lane = prepareLaneDirs({ cwd: process.cwd() });
    expect(lane.dirs.stateDir).toBe(`${lane.dirs.home}/.openclaw`);
    for (const dir of [lane.dirs.home, lane.dirs.stateDir, lane.dirs.tmpDir]) expect(existsSync(dir)).toBe(true);
    lane.cleanup();
    expect(existsSync(lane.dirs.home)).toBe(false);
    expect(existsSync(process.cwd())).toBe(true);
  });

  it('takes the engine Node binary from the option, then CONTEXTSCOPE_ENGINE_NODE, then this process', () => {
    expect(resolveEngineNodePath('/opt/node22/bin/node', { CONTEXTSCOPE_ENGINE_NODE: '/other' })).toBe(
      '/opt/node22/bin/node',
    );
    expect(resolveEngineNodePath(undefined, { CONTEXTSCOPE_ENGINE_NODE: ' /opt/node22/bin/node ' })).toBe(
      '/opt/node22/bin/node',
    );
    expect(resolveEngineNodePath(undefined, {})).toBe(process.execPath);
  });
});

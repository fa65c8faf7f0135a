import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeApp, describeHealth, PACKAGE_NAME, PACKAGE_VERSION } from '../../../src/app';

const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  name: string;
  version: string;
};

describe('describeApp', () => {
  it('reports the package name and version from package.json', () => {
    expect([PACKAGE_NAME, PACKAGE_VERSION]).toEqual([packageJson.name, packageJson.version]);
  });

  it('reports shell, runtime host and the process facts it is given', () => {
    const info = describeApp(
      { shell: 'browser', runtimeHost: 'node' },
      { version: 'v20.1.2', platform: 'linux', arch: 'x64', pid: 42 },
    );
    expect(info).toEqual({
      name: packageJson.name,
      version: packageJson.version,
      shell: 'browser',
      runtimeHost: 'node',
      nodeVersion: 'v20.1.2',
      platform: 'linux',
      arch: 'x64',
      pid: 42,
    });
  });

  it('includes the Electron version only when there is one', () => {
    const info = describeApp({ shell: 'electron', runtimeHost: 'electron-main', electronVersion: '45.5.0' });
    expect(info.electronVersion).toBe('45.5.0');
    expect('electronVersion' in describeApp({ shell: 'browser', runtimeHost: 'node' })).toBe(false);
  });
});

describe('describeHealth', () => {
  it('measures uptime from the start time and never goes negative', () => {
    expect(describeHealth(1_000, 3_500, { rss: 10, heapUsed: 5 })).toEqual({
      ok: true,
      uptimeMs: 2_500,
      rssBytes: 10,
      heapUsedBytes: 5,
    });
    expect(describeHealth(5_000, 4_000, { rss: 1, heapUsed: 1 }).uptimeMs).toBe(0);
  });
});

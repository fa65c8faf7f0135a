import type { AppHealth, AppInfo, RuntimeHost, ShellKind } from '../bridge';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../common';

export interface AppEnvironment {
  shell: ShellKind;
  runtimeHost: RuntimeHost;
  /** Electron's version when the code runs inside Electron (process.versions.electron). */
  electronVersion?: string;
}

/** What `app.info` answers: who is serving, on what, from which process. */
export function describeApp(
  env: AppEnvironment,
  proc: Pick<NodeJS.Process, 'version' | 'platform' | 'arch' | 'pid'> = process,
): AppInfo {
  const info: AppInfo = {
    name: PACKAGE_NAME,
    version: PACKAGE_VERSION,
    shell: env.shell,
    runtimeHost: env.runtimeHost,
    nodeVersion: proc.version,
    platform: proc.platform,
    arch: proc.arch,
    pid: proc.pid,
  };
  if (env.electronVersion !== undefined) info.electronVersion = env.electronVersion;
  return info;
}

/** What `app.health` answers. `startedAt` and `now` are epoch milliseconds. */
export function describeHealth(
  startedAt: number,
  now: number,
  memory: Pick<NodeJS.MemoryUsage, 'rss' | 'heapUsed'>,
): AppHealth {
  return {
    ok: true,
    uptimeMs: Math.max(0, Math.round(now - startedAt)),
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
  };
}

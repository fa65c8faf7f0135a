/**
 * The loader's part of least privilege (host/hostPermissions.ts): for one engine host of one plugin, whether it runs
 * under Node's permission model and with which flags, and the transpile-cache folder that goes with it — a confined
 * host reads and writes only its plugin's own cache folder (named by its real path and content hash), so one plugin
 * cannot plant transpiled code for another.
 */
import type { EngineHostEntry } from './host/hostEntry';
import {
  nodePermissionSupport,
  permissionArgv,
  planHostSandbox,
  unconfinableReason,
  type HostGrants,
} from './host/hostPermissions';
import type { LaneDirs } from './host/laneEnvironment';
import { pluginTranspileCacheDir, transpileCacheDir } from './transpileCache';
import type { EntryFormat } from './host/protocol';

export interface PluginSandboxInfo {
  confined: boolean;
  /** why the host runs without the permission model, when it does */
  reason?: string;
  /** child processes / worker threads granted to the host */
  grants: HostGrants;
  read: string[];
  write: string[];
}

export interface PluginSandboxInput {
  entry: EngineHostEntry;
  nodePath: string;
  dirs: LaneDirs;
  plugin: { rootDir: string; realPath: string; entries: readonly { format: EntryFormat }[] };
  /** the consent's package hash and the link targets out of the package it covers */
  contentHash: string;
  linkedTargets: readonly string[];
  grants: HostGrants;
  /** LoadPluginOptions.sandbox: further paths, or `false` for no model */
  sandbox: false | { read?: string[]; write?: string[] } | undefined;
  /** LoadPluginOptions.transpileCacheDir (undefined: the default folder; false: no cache) */
  transpileCacheDir: string | false | undefined;
}

export interface PluginSandboxPlan {
  info: PluginSandboxInfo;
  /** the flags for the host (absent: unconfined) */
  argv?: string[];
  /** the register request's transpile-cache folder */
  transpileDir: string | false | undefined;
}

export function planPluginSandbox(input: PluginSandboxInput): PluginSandboxPlan {
  const { plugin, sandbox, grants } = input;
  const hasTs = plugin.entries.some((e) => e.format === 'ts');
  const sharedCache = () => (input.transpileCacheDir === undefined ? transpileCacheDir() : input.transpileCacheDir);
  const unconfined = (reason: string, transpileDir: string | false | undefined): PluginSandboxPlan => ({
    info: { confined: false, reason, grants, read: [], write: [] },
    transpileDir,
  });
  if (sandbox === false)
    return unconfined('the loader was asked to run it unconfined', hasTs ? sharedCache() : undefined);
  const support = nodePermissionSupport(input.nodePath);
  const why =
    unconfinableReason(input.entry) ?? (support.flag ? undefined : (support.why ?? 'its Node has no permission model'));
  if (why !== undefined) return unconfined(why, hasTs ? sharedCache() : undefined);
  // TypeScript entries are transpiled; so are ESM ones on a confined Node without in-thread module hooks (Node 20)
  const shared = hasTs || plugin.entries.some((e) => e.format === 'esm') ? sharedCache() : undefined;
  const cacheDir = shared ? pluginTranspileCacheDir(shared, plugin.realPath, input.contentHash) : undefined;
  const planned = planHostSandbox({
    entry: input.entry,
    support,
    pluginDirs: [plugin.rootDir, plugin.realPath],
    linkedPaths: input.linkedTargets,
    laneDirs: [input.dirs.home, input.dirs.stateDir, input.dirs.tmpDir, input.dirs.cwd],
    ...(cacheDir ? { transpileCacheDir: cacheDir } : {}),
    ...(sandbox?.read ? { extraRead: sandbox.read } : {}),
    ...(sandbox?.write ? { extraWrite: sandbox.write } : {}),
    grants,
  });
  if ('unconfined' in planned) return unconfined(planned.unconfined, hasTs ? shared : undefined);
  return {
    info: { confined: true, grants, read: planned.plan.read, write: planned.plan.write },
    argv: permissionArgv(planned.plan),
    transpileDir: cacheDir ?? false,
  };
}

/**
 * Least privilege for engine hosts: the Node permission model flags an engine host starts with, and what they allow.
 *
 * An engine host runs under Node's permission model (`--permission` on Node 22.13+/23.5+, `--experimental-permission`
 * on Node 20 and 21) when its Node has it and the host is the built `engine-host.mjs` (the TypeScript source runs
 * through tsx, whose loader needs a worker thread). It may read the plugin's folder (its real path, the path it was
 * found by, and the targets of symbolic links out of it that consent covers), the engine host's own code (the
 * bundle's folder, the SDK shims, the app's `node_modules` with jiti and tiktoken, the `package.json` files Node's
 * loader looks at on the way), the plugin's own transpile-cache folder, the lane's folders (HOME, state dir, TMPDIR,
 * working directory) and whatever else the caller names (a replay: the lane's transcripts); it may write only the
 * lane's folders and the transpile-cache folder. Child processes and worker threads are refused unless granted for
 * the plugin (a worker can be started with `execArgv` that turn the model off, and a child process is outside it:
 * either grant lifts the confinement, which the lane says). Native addons and WASI are refused.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, parse } from 'node:path';
import type { EngineHostEntry } from './hostEntry';

/** What a user may grant a plugin beyond the default (both off). */
export interface HostGrants {
  /** `--allow-child-process`: the plugin may start processes (they run outside the permission model) */
  childProcess?: boolean;
  /** `--allow-worker`: the plugin may start worker threads (one can be started with the model turned off) */
  worker?: boolean;
}

/** The grant names a lane spec takes (`allow=child-process,worker`) and the field each sets. */
export const HOST_GRANT_NAMES = { 'child-process': 'childProcess', worker: 'worker' } as const;
export type HostGrantName = keyof typeof HOST_GRANT_NAMES;

/** `child-process,worker` → grants; throws naming the unknown word. */
export function parseHostGrants(text: string): HostGrants {
  const grants: HostGrants = {};
  for (const word of text.split(',').map((w) => w.trim())) {
    if (!word) continue;
    if (!Object.prototype.hasOwnProperty.call(HOST_GRANT_NAMES, word))
      throw new Error(`unknown grant "${word}": use ${Object.keys(HOST_GRANT_NAMES).join(', ')} (comma-separated)`);
    grants[HOST_GRANT_NAMES[word as HostGrantName]] = true;
  }
  return grants;
}

/** Only the granted keys, `true` each (a stored or decoded object may carry anything). */
export function cleanHostGrants(value: unknown): HostGrants {
  const raw = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return {
    ...(raw.childProcess === true ? { childProcess: true } : {}),
    ...(raw.worker === true ? { worker: true } : {}),
  };
}

export function unionHostGrants(...all: (HostGrants | undefined)[]): HostGrants {
  return cleanHostGrants({
    childProcess: all.some((g) => g?.childProcess === true),
    worker: all.some((g) => g?.worker === true),
  });
}

/** The grants in `wanted` that `given` lacks. */
export function missingHostGrants(wanted: HostGrants | undefined, given: HostGrants | undefined): HostGrantName[] {
  const missing: HostGrantName[] = [];
  if (wanted?.childProcess && !given?.childProcess) missing.push('child-process');
  if (wanted?.worker && !given?.worker) missing.push('worker');
  return missing;
}

/** "child processes and worker threads", "child processes", … ("" for none). */
export function describeHostGrants(grants: HostGrants | undefined): string {
  const parts = [...(grants?.childProcess ? ['child processes'] : []), ...(grants?.worker ? ['worker threads'] : [])];
  return parts.join(' and ');
}

export type PermissionFlag = '--permission' | '--experimental-permission';

export interface NodePermissionSupport {
  /** the flag that turns the model on; absent when this Node has none */
  flag?: PermissionFlag;
  /** the Node's version (`v20.20.2`), when it could be asked */
  version?: string;
  /** flags this Node takes that matter here (`--disable-warning`) */
  flags: string[];
  /** why there is no model (a sentence), when there is none */
  why?: string;
}

const RELEVANT_FLAG = /^--(permission|experimental-permission|allow-[a-z-]+|disable-warning)$/;
const supportCache = new Map<string, NodePermissionSupport>();

function supportFrom(version: string | undefined, flags: string[], nodePath: string): NodePermissionSupport {
  const relevant = flags.filter((f) => RELEVANT_FLAG.test(f));
  const flag = relevant.includes('--permission')
    ? '--permission'
    : relevant.includes('--experimental-permission')
      ? '--experimental-permission'
      : undefined;
  return {
    ...(flag ? { flag } : {}),
    ...(version ? { version } : {}),
    flags: relevant,
    ...(flag ? {} : { why: `its Node (${version ?? nodePath}) has no permission model` }),
  };
}

/**
 * Whether the Node at `nodePath` has the permission model, and with which flag. This process's own Node answers from
 * `process.allowedNodeEnvironmentFlags`; another binary is asked once (about 40 ms) and the answer kept.
 */
export function nodePermissionSupport(nodePath: string): NodePermissionSupport {
  const cached = supportCache.get(nodePath);
  if (cached) return cached;
  let support: NodePermissionSupport;
  if (nodePath === process.execPath && process.versions.electron) {
    // Electron starts engine hosts on its own runtime in a utility process (main/electron), which has no such model
    support = {
      flags: [],
      why: `it runs on Electron ${process.versions.electron}'s own runtime (a utility process), which does not run Node's permission model; set CONTEXTSCOPE_ENGINE_NODE to a Node binary (20.20+ or 22+) to run engine hosts confined`,
    };
  } else if (nodePath === process.execPath) {
    support = supportFrom(process.version, [...process.allowedNodeEnvironmentFlags], nodePath);
  } else {
    const probe = spawnSync(
      nodePath,
      ['-p', 'JSON.stringify([process.version, [...process.allowedNodeEnvironmentFlags]])'],
      { encoding: 'utf8', timeout: 15_000, windowsHide: true, env: { PATH: process.env.PATH ?? '' } },
    );
    try {
      const [version, flags] = JSON.parse(probe.stdout) as [string, string[]];
      support = supportFrom(version, flags, nodePath);
    } catch {
      const why = probe.error
        ? probe.error.message
        : `it answered ${JSON.stringify((probe.stderr ?? '').slice(0, 200))}`;
      support = { flags: [], why: `ContextScope could not ask ${nodePath} for its flags (${why})` };
    }
  }
  supportCache.set(nodePath, support);
  return support;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Each path and its real path, once each, in order. */
function withRealPaths(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) for (const p of [path, realpathOr(path)]) if (!out.includes(p)) out.push(p);
  return out;
}

/**
 * What the engine host's own code reads: the bundle's folder, the SDK shims, the `node_modules` folder its packages
 * (jiti, tiktoken, typebox) resolve from, and the `package.json` files from the bundle's folder up (Node's loader
 * reads each to find a module's type). Undefined when the host runs from TypeScript source (tsx cannot be confined).
 */
export function hostCodeReadPaths(entry: EngineHostEntry): string[] {
  const bundleDir = dirname(entry.entry);
  const paths = [bundleDir, entry.shimDir];
  try {
    const jiti = createRequire(join(bundleDir, 'noop.js')).resolve('jiti/package.json');
    paths.push(dirname(dirname(jiti)));
  } catch {
    // no jiti next to the bundle: TypeScript entries fail with their own error
  }
  const root = parse(bundleDir).root;
  for (let dir = dirname(bundleDir); ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) paths.push(manifest);
    if (dir === root || dir === dirname(dir)) break;
  }
  return withRealPaths(paths);
}

/** Why a host started this way cannot be confined (undefined when it can). */
export function unconfinableReason(entry: EngineHostEntry): string | undefined {
  if (entry.entry.endsWith('.ts') || entry.execArgv.length > 0)
    return 'the engine host runs from its TypeScript source through tsx, whose loader needs worker threads; the built engine host (npm run build) runs confined';
  return undefined;
}

export interface HostSandboxPlan {
  flag: PermissionFlag;
  /** readable paths (a folder covers everything under it) */
  read: string[];
  /** writable paths */
  write: string[];
  grants: HostGrants;
  /** Node 20's model warns once per start that it is experimental: silenced when the Node can */
  quietExperimentalWarning: boolean;
}

/** The Node flags for a plan: one `--allow-fs-read`/`--allow-fs-write` per path (Node 20.20+ and 22+ repeat them). */
export function permissionArgv(plan: HostSandboxPlan): string[] {
  return [
    plan.flag,
    ...plan.read.map((p) => `--allow-fs-read=${p}`),
    ...plan.write.map((p) => `--allow-fs-write=${p}`),
    ...(plan.grants.childProcess ? ['--allow-child-process'] : []),
    ...(plan.grants.worker ? ['--allow-worker'] : []),
    ...(plan.quietExperimentalWarning ? ['--disable-warning=ExperimentalWarning'] : []),
  ];
}

export interface HostSandboxInput {
  entry: EngineHostEntry;
  support: NodePermissionSupport;
  /** the plugin folder as found and its real path */
  pluginDirs: readonly string[];
  /** files and folders outside the plugin folder that consent covers (targets of symbolic links out of it) */
  linkedPaths?: readonly string[];
  /** the lane's folders: read and written */
  laneDirs: readonly string[];
  /** the plugin's transpile-cache folder: read and written */
  transpileCacheDir?: string;
  /** further readable paths (a replay's lane transcripts) */
  extraRead?: readonly string[];
  /** further writable paths */
  extraWrite?: readonly string[];
  grants: HostGrants;
}

/** The plan for one engine host, or why it runs without the model. */
export function planHostSandbox(input: HostSandboxInput): { plan: HostSandboxPlan } | { unconfined: string } {
  const cannot = unconfinableReason(input.entry);
  if (cannot) return { unconfined: cannot };
  if (!input.support.flag) return { unconfined: input.support.why ?? 'its Node has no permission model' };
  const writable = withRealPaths([
    ...input.laneDirs,
    ...(input.transpileCacheDir ? [input.transpileCacheDir] : []),
    ...(input.extraWrite ?? []),
  ]);
  const read = withRealPaths([
    ...input.pluginDirs,
    ...(input.linkedPaths ?? []),
    ...hostCodeReadPaths(input.entry),
    ...(input.extraRead ?? []),
  ]);
  for (const path of writable) if (!read.includes(path)) read.push(path);
  return {
    plan: {
      flag: input.support.flag,
      read,
      write: writable,
      grants: input.grants,
      quietExperimentalWarning:
        input.support.flag === '--experimental-permission' && input.support.flags.includes('--disable-warning'),
    },
  };
}

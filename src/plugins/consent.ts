/**
 * Consent to execute a plugin's code. A grant is remembered per plugin realpath together with the package's
 * content hash (snapshotPluginPackage: every file the plugin can load), in a JSON file under the app's config dir,
 * updated under a lock file and written atomically; a changed package invalidates the grant.
 * `allowExecuteConsent()` is the CLI's `--allow-execute` (this run only).
 *
 * A consent may also grant the plugin's engine host child processes or worker threads (`grants`, see
 * host/hostPermissions.ts; by default it has neither): remembered with the grant, or confirmed for one run. Under
 * `--allow-execute` a lane's own request (`allow=child-process`) is granted as asked (`grantsAsRequested`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { withFileLock } from '../common/fileLock';
import { writeFileAtomic } from '../common/writeFileAtomic';
import { snapshotPluginPackage, type HashablePlugin, type PackageSnapshot } from './hashPluginPackage';
import { cleanHostGrants, type HostGrants } from './host/hostPermissions';

export interface ConsentSubject extends HashablePlugin {
  id: string;
  realPath: string;
}

export interface ConsentDecision {
  granted: boolean;
  /** why not (a sentence for a person), or how it was granted */
  reason: string;
  /** the package's current content hash */
  hash: string;
  /** the files that hash covers (the loader lets the engine host load only these) */
  snapshot?: PackageSnapshot;
  /** what this consent grants the engine host beyond the default (child processes, worker threads) */
  grants?: HostGrants;
  /** a lane's own request for grants is granted as asked (the CLI's --allow-execute) */
  grantsAsRequested?: boolean;
}

/** What loadPlugin asks before it executes a plugin. */
export interface PluginConsent {
  check(plugin: ConsentSubject): ConsentDecision | Promise<ConsentDecision>;
}

export interface ConsentGrant {
  realPath: string;
  pluginId: string;
  hash: string;
  grantedAt: string;
  /** child processes / worker threads granted with this consent (absent: neither) */
  grants?: HostGrants;
}

export interface ConsentStore extends PluginConsent {
  readonly file: string;
  check(plugin: ConsentSubject): ConsentDecision;
  /**
   * remembers consent for the plugin's current content, with `grants` for its engine host (default: none; a grant
   * given again replaces them); with `expectedHash` (the content the person reviewed) nothing is remembered and an
   * error says so when the package changed since
   */
  grant(plugin: ConsentSubject, expectedHash?: string, grants?: HostGrants): ConsentGrant;
  /** forgets consent for a realpath; true when there was one */
  revoke(realPath: string): boolean;
  list(): ConsentGrant[];
}

interface ConsentFile {
  version: 1;
  grants: Record<string, { pluginId: string; hash: string; grantedAt: string; grants?: HostGrants }>;
}

export function noConsentMessage(path: string): string {
  return `not executed: no consent for ${path}; run with --allow-execute or approve it in the app`;
}

/** The app's config dir: CONTEXTSCOPE_CONFIG_DIR, else the platform's per-user config location. */
export function appConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CONTEXTSCOPE_CONFIG_DIR?.trim()) return env.CONTEXTSCOPE_CONFIG_DIR.trim();
  const home = env.HOME?.trim() || homedir();
  if (process.platform === 'win32')
    return join(env.APPDATA?.trim() || join(home, 'AppData', 'Roaming'), 'contextscope');
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'contextscope');
  return join(env.XDG_CONFIG_HOME?.trim() || join(home, '.config'), 'contextscope');
}

export function defaultConsentFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(appConfigDir(env), 'plugin-consent.json');
}

function readConsentFile(file: string): ConsentFile {
  if (!existsSync(file)) return { version: 1, grants: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(
      `the plugin consent file ${file} is not valid JSON (${String(error)}); fix or delete it to approve plugins again`,
      { cause: error },
    );
  }
  const grants = (parsed as { grants?: unknown })?.grants;
  if (!grants || typeof grants !== 'object' || Array.isArray(grants)) return { version: 1, grants: {} };
  const clean: ConsentFile['grants'] = {};
  for (const [path, grant] of Object.entries(grants as Record<string, unknown>)) {
    const g = grant as { pluginId?: unknown; hash?: unknown; grantedAt?: unknown; grants?: unknown };
    if (typeof g?.hash === 'string') {
      const hostGrants = cleanHostGrants(g.grants);
      clean[path] = {
        pluginId: String(g.pluginId ?? ''),
        hash: g.hash,
        grantedAt: String(g.grantedAt ?? ''),
        ...(Object.keys(hostGrants).length > 0 ? { grants: hostGrants } : {}),
      };
    }
  }
  return { version: 1, grants: clean };
}

function changedMessage(realPath: string, granted: string, current: string): string {
  return `not executed: ${realPath} changed since consent was given (content hash ${granted.slice(0, 12)} → ${current.slice(0, 12)}); review it, then run with --allow-execute or approve it in the app again`;
}

/** Read-modify-write of the consent file under its lock, so two processes never lose each other's grants. */
function updateConsentFile<T>(file: string, change: (data: ConsentFile) => { result: T; write: boolean }): T {
  return withFileLock(file, () => {
    const data = readConsentFile(file);
    const { result, write } = change(data);
    if (write) writeFileAtomic(file, `${JSON.stringify(data, null, 2)}\n`);
    return result;
  });
}

export function createConsentStore(file: string = defaultConsentFile()): ConsentStore {
  return {
    file,
    check(plugin) {
      const snapshot = snapshotPluginPackage(plugin);
      const hash = snapshot.hash;
      const grant = readConsentFile(file).grants[plugin.realPath];
      if (!grant) return { granted: false, reason: noConsentMessage(plugin.realPath), hash, snapshot };
      if (grant.hash !== hash)
        return { granted: false, reason: changedMessage(plugin.realPath, grant.hash, hash), hash, snapshot };
      return {
        granted: true,
        reason: `approved on ${grant.grantedAt}`,
        hash,
        snapshot,
        ...(grant.grants ? { grants: grant.grants } : {}),
      };
    },
    grant(plugin, expectedHash, grants) {
      const hash = snapshotPluginPackage(plugin).hash;
      if (expectedHash !== undefined && hash !== expectedHash) {
        throw new Error(
          `${plugin.realPath} changed since its consent was asked for (content hash ${expectedHash.slice(0, 12)} → ${hash.slice(0, 12)}); nothing was approved. Review it and approve it again.`,
        );
      }
      const hostGrants = cleanHostGrants(grants);
      const grant = {
        pluginId: plugin.id,
        hash,
        grantedAt: new Date().toISOString(),
        ...(Object.keys(hostGrants).length > 0 ? { grants: hostGrants } : {}),
      };
      return updateConsentFile(file, (data) => {
        data.grants[plugin.realPath] = grant;
        return { result: { realPath: plugin.realPath, ...grant }, write: true };
      });
    },
    revoke(realPath) {
      return updateConsentFile(file, (data) => {
        if (!data.grants[realPath]) return { result: false, write: false };
        delete data.grants[realPath];
        return { result: true, write: true };
      });
    },
    list() {
      return Object.entries(readConsentFile(file).grants).map(([realPath, g]) => ({ realPath, ...g }));
    },
  };
}

/** Consent for every plugin, for this run only (the CLI's --allow-execute). */
export function allowExecuteConsent(): PluginConsent {
  return {
    check: (plugin) => {
      const snapshot = snapshotPluginPackage(plugin);
      return {
        granted: true,
        reason: 'allowed by --allow-execute',
        hash: snapshot.hash,
        snapshot,
        grantsAsRequested: true,
      };
    },
  };
}

/** Consent for no plugin: everything is listed, nothing runs. */
export function denyAllConsent(): PluginConsent {
  return {
    check: (plugin) => ({
      granted: false,
      reason: noConsentMessage(plugin.realPath),
      hash: snapshotPluginPackage(plugin).hash,
    }),
  };
}

/** A plugin the main process confirmed for one run: its real path and the content hash that was confirmed. */
export interface ConfirmedPlugin {
  realPath: string;
  hash: string;
  /** child processes / worker threads confirmed with it (absent: neither) */
  grants?: HostGrants;
}

/**
 * Consent for this run: a plugin named in `confirmed` runs when its content is still what was confirmed; any other
 * plugin needs a remembered grant in `store`. Plain data in, so a batch worker thread builds the same consent.
 */
export function confirmedConsent(confirmed: readonly ConfirmedPlugin[], store: PluginConsent): PluginConsent {
  return {
    check(plugin) {
      const match = confirmed.find((c) => c.realPath === plugin.realPath);
      if (!match) return store.check(plugin);
      const snapshot = snapshotPluginPackage(plugin);
      if (snapshot.hash !== match.hash) {
        return {
          granted: false,
          reason: `not executed: ${plugin.realPath} changed since consent was confirmed (content hash ${match.hash.slice(0, 12)} → ${snapshot.hash.slice(0, 12)}); review it and confirm again`,
          hash: snapshot.hash,
          snapshot,
        };
      }
      const grants = cleanHostGrants(match.grants);
      return {
        granted: true,
        reason: 'confirmed for this run',
        hash: snapshot.hash,
        snapshot,
        ...(Object.keys(grants).length > 0 ? { grants } : {}),
      };
    },
  };
}

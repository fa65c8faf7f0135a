/**
 * Consent to run plugin code is granted by the main process, never by a flag in a request. A bridge caller asks
 * (`plugins.requestConsent {paths, purpose}`); the main process reads each plugin, hashes what it covers, asks the
 * person (Electron: a native dialog via `confirm`; browser mode: the server logs what will run and the renderer's
 * own dialog was the confirmation), and hands back a one-time nonce bound to each plugin's real path and content
 * hash. `plugins.approve {nonce}` remembers it; `replay.start` / `doctor.run {consentNonce}` run those plugins once.
 * A nonce works once, for its purpose only, for a few minutes, and only for the content that was confirmed.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { BridgeMethodError, type ConsentPurpose } from '../bridge';
import {
  cleanHostGrants,
  describeHostGrants,
  looksLikePluginDir,
  readPluginPackage,
  snapshotPluginPackage,
  type DiscoveredPlugin,
  type HostGrants,
} from '../plugins';

/** One plugin a consent is asked for, as the person sees it. */
export interface ConsentSubjectInfo {
  pluginId: string;
  path: string;
  realPath: string;
  hash: string;
  files: number;
  bytes: number;
  truncated?: string;
  /** child processes / worker threads confirmed for its engine host (absent: neither) */
  grants?: HostGrants;
}

export interface ConsentPrompt {
  purpose: ConsentPurpose;
  plugins: ConsentSubjectInfo[];
}

export interface ConsentOffer extends ConsentPrompt {
  nonce: string;
  expiresAt: string;
}

export interface ConsentBrokerOptions {
  /** asks the person in the main process (Electron's native dialog); resolves true when they agreed */
  confirm?: (prompt: ConsentPrompt) => Promise<boolean>;
  log?: (line: string) => void;
  /** how long a nonce stays valid (default 5 minutes) */
  ttlMs?: number;
  now?: () => number;
}

export interface ConsentBroker {
  /** `grants`: child processes / worker threads for these plugins' engine hosts, named in the confirmation */
  request(paths: readonly string[], purpose: ConsentPurpose, grants?: HostGrants): Promise<ConsentOffer>;
  /** the plugins a nonce stands for; it is used up. Throws consent_required for an unknown, used or expired nonce. */
  take(nonce: string, purpose: ConsentPurpose, at: string): ConsentSubjectInfo[];
}

/** A plugin folder, or the folder of a `plugin:<folder>[?…]` lane spec. */
function folderOf(ref: string): string {
  const spec = ref.startsWith('plugin:') ? ref.slice('plugin:'.length) : ref;
  const query = spec.indexOf('?');
  return resolve(query >= 0 ? spec.slice(0, query) : spec);
}

/** The plugin in a folder the user names, or a not_found error that says what is missing. */
export function pluginAt(path: string, at = '/path'): DiscoveredPlugin {
  const dir = folderOf(path);
  if (!looksLikePluginDir(dir)) {
    throw new BridgeMethodError(
      'not_found',
      `${dir} is not a plugin folder: it has no openclaw.plugin.json (nor a package.json with an "openclaw" section). Pass the folder plugins.list reports as the plugin's path.`,
      at,
    );
  }
  return readPluginPackage(dir, 'linked');
}

function describe(plugin: DiscoveredPlugin, grants: HostGrants): ConsentSubjectInfo {
  const snapshot = snapshotPluginPackage(plugin);
  return {
    pluginId: plugin.id,
    path: plugin.rootDir,
    realPath: plugin.realPath,
    hash: snapshot.hash,
    files: snapshot.fileCount,
    bytes: snapshot.bytes,
    ...(snapshot.truncated ? { truncated: snapshot.truncated } : {}),
    ...(Object.keys(grants).length > 0 ? { grants } : {}),
  };
}

export function createConsentBroker(options: ConsentBrokerOptions = {}): ConsentBroker {
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 5 * 60_000;
  const log = options.log ?? (() => {});
  const offers = new Map<string, { purpose: ConsentPurpose; plugins: ConsentSubjectInfo[]; expires: number }>();

  return {
    async request(paths, purpose, grants) {
      const granted = cleanHostGrants(grants);
      const plugins = paths.map((path, i) => describe(pluginAt(path, `/paths/${i}`), granted));
      const prompt = { purpose, plugins };
      if (options.confirm && !(await options.confirm(prompt)))
        throw new BridgeMethodError(
          'consent_declined',
          'Consent was declined in the confirmation dialog; nothing runs.',
        );
      for (const [nonce, offer] of offers) if (offer.expires <= now()) offers.delete(nonce);
      const nonce = randomBytes(24).toString('hex');
      const expires = now() + ttlMs;
      offers.set(nonce, { purpose, plugins, expires });
      for (const p of plugins)
        log(
          `consent (${purpose === 'approve' ? 'approve' : 'run once'}): plugin "${p.pluginId}" at ${p.realPath}, content hash ${p.hash.slice(0, 12)}, ${p.files} files${p.grants ? `, may start ${describeHostGrants(p.grants)}` : ''}`,
        );
      return { nonce, purpose, plugins, expiresAt: new Date(expires).toISOString() };
    },
    take(nonce, purpose, at) {
      const offer = offers.get(nonce);
      if (offer) offers.delete(nonce);
      if (!offer || offer.expires <= now() || offer.purpose !== purpose) {
        throw new BridgeMethodError(
          'consent_required',
          `That consent is not valid (unknown, already used, expired, or asked for ${purpose === 'approve' ? 'a run' : 'approval'}): ask for consent again with plugins.requestConsent {paths, purpose: "${purpose}"}.`,
          at,
        );
      }
      return offer.plugins;
    },
  };
}

/**
 * A plugin's consent as the Plugins and Config views show it: granted (for this content), stale-hash (granted for
 * content that has changed since) or missing, with the store's reason. One definition for `plugins.list` and
 * `config.read`.
 */
import type { PluginConsentInfo } from '../bridge';
import type { ConsentStore, DiscoveredPlugin } from '../plugins';

export function pluginConsentInfo(plugin: DiscoveredPlugin, store: ConsentStore): PluginConsentInfo {
  const decision = store.check(plugin);
  const grant = store.list().find((entry) => entry.realPath === plugin.realPath);
  const state = decision.granted ? 'granted' : grant ? 'stale-hash' : 'missing';
  return {
    state,
    message: decision.reason,
    hash: decision.hash,
    ...(grant && decision.granted ? { grantedAt: grant.grantedAt } : {}),
    ...(grant?.grants && decision.granted ? { grants: grant.grants } : {}),
  };
}

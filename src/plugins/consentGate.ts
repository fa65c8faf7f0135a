/**
 * The loader's consent step: what the consent says, and the snapshot of the files it covers (the engine host loads
 * only those, with that content). A consent that answers with another hash than the package has now was given for
 * other content: the plugin does not run.
 */
import { errorMessage } from '../common/errorText';
import type { ConsentSubject, PluginConsent } from './consent';
import { snapshotPluginPackage, type PackageSnapshot } from './hashPluginPackage';
import { cleanHostGrants, type HostGrants } from './host/hostPermissions';

export type ConsentOutcome =
  | { granted: true; reason: string; snapshot: PackageSnapshot; grants: HostGrants; grantsAsRequested: boolean }
  | { granted: false; reason: string };

export async function decideConsent(plugin: ConsentSubject, consent: PluginConsent): Promise<ConsentOutcome> {
  let decision;
  try {
    decision = await consent.check(plugin);
  } catch (error) {
    return {
      granted: false,
      reason: `not executed: consent could not be checked for ${plugin.realPath}: ${errorMessage(error)}`,
    };
  }
  if (!decision.granted) return { granted: false, reason: decision.reason };
  const snapshot = decision.snapshot ?? snapshotPluginPackage(plugin);
  if (snapshot.hash !== decision.hash) {
    return {
      granted: false,
      reason: `not executed: ${plugin.realPath} is not the content consent was given for (content hash ${decision.hash.slice(0, 12)} → ${snapshot.hash.slice(0, 12)}); review it and approve it again`,
    };
  }
  return {
    granted: true,
    reason: decision.reason,
    snapshot,
    grants: cleanHostGrants(decision.grants),
    grantsAsRequested: decision.grantsAsRequested === true,
  };
}

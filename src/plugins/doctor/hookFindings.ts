/**
 * `hook-blocked`: a hook the plugin registered that OpenClaw drops at registration (hookPolicy.ts) — in every
 * release ContextScope models, or from 2026.8 on — so whatever the plugin does in it never happens in OpenClaw.
 */
import type { OpenClawConfig } from '../../contract';
import type { LoadedPlugin } from '../loadPlugin';
import { hookBlockedReason } from '../hookPolicy';
import type { DiscoveredPlugin } from '../types';
import type { DoctorFinding } from './reportTypes';

export function hookFindings(plugin: DiscoveredPlugin, loaded: LoadedPlugin, config: OpenClawConfig): DoctorFinding[] {
  const names = [...new Set((loaded.registrations?.hooks ?? []).map((h) => h.event))].sort();
  const findings: DoctorFinding[] = [];
  for (const name of names) {
    const always = hookBlockedReason(name, plugin.id, false, config);
    const from2026_8 = always ? undefined : hookBlockedReason(name, plugin.id, true, config);
    const why = always ?? from2026_8;
    if (!why) continue;
    findings.push({
      severity: 'warn',
      code: 'hook-blocked',
      where: { pluginId: plugin.id, file: plugin.entries[0]?.file ?? plugin.rootDir },
      message: `${always ? 'OpenClaw does' : 'OpenClaw 2026.8 and later do'} not run the plugin's ${name} hook: ${why}`,
      fix:
        name === 'before_agent_start'
          ? 'move what the hook returns to a before_prompt_build hook'
          : `if the plugin needs it, set plugins.entries.${plugin.id}.hooks in openclaw.json as the message says`,
    });
  }
  return findings;
}

/**
 * The slot pickers' choices: `legacy` and every context engine the discovered plugins register (with each
 * plugin's load status), or `memory-core`, `none` and the memory plugins; a configured value that nothing
 * provides stays listed, saying what OpenClaw does with it. Pure.
 */
import type { ConfigPluginInfo } from '../../../src/bridge/methods';

export interface SlotChoice {
  value: string;
  label: string;
  /** load status in words: "bundled · enabled · approved", "not registered: falls back to legacy" */
  detail: string;
  problem: boolean;
}

function status(plugin: ConfigPluginInfo): string {
  const consent =
    plugin.consent === 'granted'
      ? 'approved'
      : plugin.consent === 'stale-hash'
        ? 'changed since approved'
        : 'not approved';
  return [plugin.origin, plugin.enabled ? 'enabled' : 'disabled', plugin.loadable ? consent : 'cannot load'].join(
    ' · ',
  );
}

export function slotChoices(slot: string, plugins: readonly ConfigPluginInfo[], current: string): SlotChoice[] {
  const choices: SlotChoice[] =
    slot === 'contextEngine'
      ? [{ value: 'legacy', label: 'legacy', detail: "OpenClaw's built-in engine (the default)", problem: false }]
      : [
          {
            value: 'memory-core',
            label: 'memory-core',
            detail: "OpenClaw's built-in memory (the default)",
            problem: false,
          },
          { value: 'none', label: 'none', detail: 'no memory plugin', problem: false },
        ];
  const kind = slot === 'contextEngine' ? 'context-engine' : 'memory';
  for (const plugin of plugins) {
    if (!plugin.kind.includes(kind)) continue;
    const engines = slot === 'contextEngine' ? plugin.engines : [plugin.id];
    for (const engine of engines) {
      choices.push({
        value: engine,
        label: engine === plugin.id ? engine : `${engine} (${plugin.id})`,
        detail: status(plugin),
        problem: !plugin.loadable || !plugin.enabled,
      });
    }
  }
  if (!choices.some((c) => c.value === current)) {
    choices.push({
      value: current,
      label: current,
      detail:
        slot === 'contextEngine'
          ? 'not registered by any plugin found here: OpenClaw quarantines it and runs legacy'
          : 'no such memory plugin: OpenClaw refuses this config',
      problem: true,
    });
  }
  return choices;
}

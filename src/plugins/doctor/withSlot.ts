import type { OpenClawConfig } from '../../contract';

/** `config` with plugins.slots.contextEngine set to `engineId` (how the doctor selects one engine to drive). */
export function withSlot(config: OpenClawConfig, engineId: string): OpenClawConfig {
  return { ...config, plugins: { ...config.plugins, slots: { ...config.plugins?.slots, contextEngine: engineId } } };
}

/**
 * Which engine id a config selects (behaviour §2.4 step 1, §2.5): `plugins.slots.contextEngine` trimmed, or the
 * default slot id `legacy` when it is absent, not a string or blank.
 */
import type { OpenClawConfig } from '../contract';
import { DEFAULT_CONTEXT_ENGINE_ID } from './quarantineStore';

/** The engine id `config` selects for the context-engine slot. */
export function resolveContextEngineSlotId(config: OpenClawConfig | undefined | null): string {
  const slot = config?.plugins?.slots?.contextEngine;
  if (typeof slot === 'string' && slot.trim().length > 0) return slot.trim();
  return DEFAULT_CONTEXT_ENGINE_ID;
}

/** Whether the selection came from config (`configured`) or fell to the default slot id (`default`). */
export function contextEngineSelectionSource(config: OpenClawConfig | undefined | null): 'configured' | 'default' {
  const slot = config?.plugins?.slots?.contextEngine;
  return typeof slot === 'string' && slot.trim().length > 0 ? 'configured' : 'default';
}

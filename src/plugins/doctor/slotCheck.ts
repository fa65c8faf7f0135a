/** plugins.slots.contextEngine resolved the way a run would (after every plugin registered), or why it cannot be. */
import type { ContextEngine, OpenClawConfig } from '../../contract';
import type { ContextRuntime } from '../../runtime';
import type { DiscoveredPlugin } from '../types';
import type { DoctorFinding } from './reportTypes';
import type { RuntimeWatch } from './runtimeWatch';
import { settle } from './settle';

export interface SlotCheck {
  runtime: ContextRuntime;
  config: OpenClawConfig;
  /** the configured slot (trimmed), null when unset */
  slot: string | null;
  /** whether any plugin code ran */
  executed: boolean;
  /** whether the run examines only some plugins (--plugin) */
  focused: boolean;
  discovered: readonly DiscoveredPlugin[];
  workspaceDir?: string;
  watch: RuntimeWatch;
}

export function contextEngineSlot(config: OpenClawConfig): string | null {
  const slot = config.plugins?.slots?.contextEngine;
  return typeof slot === 'string' ? slot.trim() || null : null;
}

export async function checkSlot(check: SlotCheck): Promise<DoctorFinding[]> {
  const { runtime, slot, executed } = check;
  const registeredIds = new Set(runtime.listContextEngineIds());
  if (!slot || slot === 'legacy') return [];
  if (executed && (!check.focused || registeredIds.has(slot))) return resolveSlot(check, slot, registeredIds);
  if (executed || check.discovered.some((p) => p.id === slot)) return [];
  return [
    {
      severity: 'info',
      code: 'slot-unverified',
      where: { engineId: slot, file: 'plugins.slots.contextEngine' },
      message: `plugins.slots.contextEngine names "${slot}"; which engines exist is only known after running the plugins`,
      fix: 'run contextscope doctor --allow-execute to check that a plugin registers this engine',
    },
  ];
}

/** Resolves the slot through the runtime: an unknown engine quarantines, a discovery-only one warns. */
async function resolveSlot(
  check: SlotCheck,
  slot: string,
  registeredIds: ReadonlySet<string>,
): Promise<DoctorFinding[]> {
  const { runtime, watch } = check;
  const findings: DoctorFinding[] = [];
  const before = watch.quarantines.length;
  const warningsBefore = watch.warnings.length;
  const resolved = await settle(
    runtime.resolveContextEngine(check.config, check.workspaceDir ? { workspaceDir: check.workspaceDir } : {}),
  );
  const slotQuarantine = watch.quarantines.slice(before).find((q) => q.engineId === slot);
  if (slotQuarantine?.operation === 'resolve') {
    findings.push({
      severity: 'error',
      code: 'slot-unknown-engine',
      where: { engineId: slot, file: 'plugins.slots.contextEngine', operation: 'resolve' },
      message: `plugins.slots.contextEngine names "${slot}", which no plugin registers; OpenClaw quarantines it (resolve: ${slotQuarantine.reason}) and runs legacy`,
      fix: `set plugins.slots.contextEngine to one of: ${['legacy', ...registeredIds].filter((v, i, a) => a.indexOf(v) === i).join(', ')}`,
    });
  }
  if (watch.warnings.slice(warningsBefore).some((w) => w.includes('read-only discovery'))) {
    findings.push({
      severity: 'warn',
      code: 'slot-discovery-only',
      where: { engineId: slot, file: 'plugins.slots.contextEngine', operation: 'resolve' },
      message: `plugins.slots.contextEngine names "${slot}", which is registered for read-only discovery only; OpenClaw falls back to legacy without quarantine`,
      fix: 'make the owning plugin register the engine in a full load',
    });
  }
  if (resolved.ok) await settle((resolved.value as ContextEngine).dispose?.());
  return findings;
}

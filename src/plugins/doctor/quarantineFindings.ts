/** What to do about a quarantine, and the engine-quarantined findings of a run. */
import type { DoctorFinding, DoctorQuarantine } from './reportTypes';

function ownerPluginId(owner: string | undefined): string | undefined {
  return owner?.startsWith('plugin:') ? owner.slice('plugin:'.length) : undefined;
}

export function quarantineFix(reason: string, operation: string): string {
  if (/^timeout after \d+ ms$/.test(reason)) {
    return `${operation}() did not settle before its deadline: make it return promptly and honour abort signals (a longer deadline: --timeout <ms>)`;
  }
  if (reason.startsWith('engine host exited') || reason.includes('(exited with code')) {
    return 'the engine ended its process (process.exit or a fatal error); an engine must never exit the host process';
  }
  if (reason.includes('killed after timeout'))
    return 'the engine blocked its process (a synchronous loop?) and was killed; never block the event loop';
  if (reason.startsWith('engine host crashed'))
    return 'an exception escaped the engine (an unhandled rejection or a throw in a callback); catch it inside the engine';
  if (operation === 'contract-validation')
    return 'return an object with info.id, info.name, ingest(), assemble() and compact() from the factory';
  if (operation === 'factory')
    return 'the factory threw: make it succeed with the config it receives (ctx.config is the root OpenClaw config)';
  return `fix the error ${operation}() threw (the plugin logs have the stack)`;
}

/** One error per quarantine, except resolving the slot's engine (reported as slot-unknown-engine). */
export function quarantineFindings(quarantines: readonly DoctorQuarantine[], slot: string | null): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  for (const q of quarantines) {
    const pluginId = ownerPluginId(q.owner);
    if (q.operation === 'resolve' && q.engineId === slot) continue;
    findings.push({
      severity: 'error',
      code: 'engine-quarantined',
      where: { ...(pluginId ? { pluginId } : {}), engineId: q.engineId, operation: q.operation },
      message: `engine "${q.engineId}" quarantined during ${q.operation}: ${q.reason}`,
      fix: quarantineFix(q.reason, q.operation),
    });
  }
  return findings;
}

/** The engine host stopped (exit, crash, kill) while the doctor drove one of its engines. */
export function hostStoppedFinding(ref: { pluginId: string; engineId: string }, stopReason: string): DoctorFinding {
  return {
    severity: 'error',
    code: 'engine-host-stopped',
    where: { pluginId: ref.pluginId, engineId: ref.engineId },
    message: `the engine host stopped while driving "${ref.engineId}": ${stopReason}`,
    fix: quarantineFix(`engine host ${stopReason}`, 'assemble'),
  };
}

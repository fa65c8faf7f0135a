/**
 * compact({force: true}) on a fresh instance and a throwaway transcript of the doctor's realistic conversation (so
 * an engine that prunes large tool results has some to prune); never through the quarantine proxy.
 */
import type { ContextEngine, OpenClawConfig } from '../../contract';
import { errorMessage } from '../../common/errorText';
import { wrapContextEngineCompat, type ContextRuntime } from '../../runtime';
import { estimateMessagesTokens } from '../../tokens';
import type { DoctorFinding } from './reportTypes';
import { checkCompactProbe, type EngineRef } from './resultChecks';
import { settle } from './settle';
import { doctorConversation, writeDoctorTranscript } from './doctorConversation';
import { withSlot } from './withSlot';

export interface CompactProbe {
  runtime: ContextRuntime;
  config: OpenClawConfig;
  ref: EngineRef;
  workDir: string;
  /** numbers the probe session */
  n: number;
  /** sessions whose compaction the engine delegated to the runtime (filled by the loader's compactionDelegate) */
  delegatedSessions: ReadonlySet<string>;
  add(finding: DoctorFinding): void;
}

export async function compactProbe(probe: CompactProbe): Promise<void> {
  const { runtime, ref, workDir } = probe;
  const registration = runtime
    .listContextEngineRegistrations()
    .find((r) => r.id === ref.engineId && r.lifecycle === 'runtime');
  if (!registration) return;
  const created = await settle(registration.factory({ config: withSlot(probe.config, ref.engineId) }));
  if (!created.ok || !created.value || typeof (created.value as ContextEngine).compact !== 'function') return;
  // the compat layer a resolved engine gets (a strict validator is retried without host keys, as in OpenClaw)
  const raw = created.value as ContextEngine;
  const engine = wrapContextEngineCompat(raw);
  const sessionId = `doctor-compact-probe-${probe.n}`;
  const sessionFile = writeDoctorTranscript(workDir, sessionId);
  const { history, tokenBudget } = doctorConversation();
  const currentTokenCount = estimateMessagesTokens(history);
  const result = await settle(
    engine.compact({
      sessionId,
      sessionKey: `agent:doctor:${sessionId}`,
      sessionFile,
      force: true,
      forceReason: 'manual',
      tokenBudget,
      currentTokenCount,
      compactionTarget: 'budget',
      runtimeContext: { workspaceDir: workDir, currentTokenCount },
    }),
  );
  await settle(engine.dispose?.());
  for (const f of checkCompactProbe(ref, {
    ownsCompaction: raw.info?.ownsCompaction === true,
    delegated: probe.delegatedSessions.has(sessionId),
    ...(result.ok ? { result: result.value } : { error: errorMessage(result.error) }),
  })) {
    probe.add(f);
  }
}

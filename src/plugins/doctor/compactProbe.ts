/**
 * compact({force: true}) on a fresh instance and a throwaway transcript of the doctor's realistic conversation (so
 * an engine that prunes large tool results has some to prune); never through the quarantine proxy.
 */
import type { AgentMessage, ContextEngine, OpenClawConfig } from '../../contract';
import { errorMessage } from '../../common/errorText';
import { wrapContextEngineCompat, type ContextRuntime } from '../../runtime';
import { estimateMessagesTokens } from '../../tokens';
import { buildSessionContext, readSessionFile } from '../../transcripts';
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

/** The size (chars/4) of what assemble() returns for `messages`, or undefined when it fails. */
async function assembledTokens(
  engine: ContextEngine,
  sessionId: string,
  messages: AgentMessage[],
  tokenBudget: number,
): Promise<number | undefined> {
  const assembled = await settle(engine.assemble({ sessionId, messages, tokenBudget }));
  const value = assembled.ok ? (assembled.value as { messages?: unknown } | undefined) : undefined;
  return Array.isArray(value?.messages) ? estimateMessagesTokens(value.messages as AgentMessage[]) : undefined;
}

async function transcriptMessages(sessionFile: string): Promise<AgentMessage[]> {
  const loaded = await settle(readSessionFile(sessionFile));
  return loaded.ok ? buildSessionContext(loaded.value).messages : doctorConversation().history;
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
  const assembledBefore = await assembledTokens(engine, sessionId, history, tokenBudget);
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
  const delegated = probe.delegatedSessions.has(sessionId);
  // what the host would pass next: the transcript's context after the compaction (unchanged unless the engine wrote it)
  const assembledAfter =
    result.ok && (result.value as { compacted?: unknown } | undefined)?.compacted === true && !delegated
      ? await assembledTokens(engine, sessionId, await transcriptMessages(sessionFile), tokenBudget)
      : undefined;
  await settle(engine.dispose?.());
  for (const f of checkCompactProbe(ref, {
    ownsCompaction: raw.info?.ownsCompaction === true,
    delegated,
    ...(assembledBefore !== undefined && assembledAfter !== undefined
      ? { measured: { before: assembledBefore, after: assembledAfter } }
      : {}),
    ...(result.ok ? { result: result.value } : { error: errorMessage(result.error) }),
  })) {
    probe.add(f);
  }
}

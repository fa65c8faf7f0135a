/**
 * One turn in OpenClaw's order (behaviour §13) on the doctor's realistic conversation (doctorConversation.ts), through the
 * runtime so failures quarantine as in a real run:
 * resolve → bootstrap (if present) → assemble → afterTurn | ingestBatch | ingest (the turn's reply) →
 * maintain (if present) → prepareSubagentSpawn + rollback and onSubagentEnded (if present). compact is not called.
 */
import type { AgentMessage, ContextEngine, OpenClawConfig } from '../../contract';
import {
  evaluateContextEngineHostSupport,
  formatContextEngineHostUnsupportedMessage,
  OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
  type ContextRuntime,
} from '../../runtime';
import type { DoctorFinding } from './reportTypes';
import { checkAssembleResult, checkLifecycleResult, type EngineRef } from './resultChecks';
import { settle } from './settle';
import { doctorConversation, writeDoctorTranscript } from './doctorConversation';
import { withSlot } from './withSlot';

export interface SmokeDrive {
  runtime: ContextRuntime;
  config: OpenClawConfig;
  ref: EngineRef;
  /** where the throwaway transcripts go */
  workDir: string;
  /** numbers the smoke session */
  n: number;
  add(finding: DoctorFinding): void;
  workspaceDir?: string;
}

export async function smokeDrive(drive: SmokeDrive): Promise<void> {
  const { runtime, ref, workspaceDir } = drive;
  const resolved = await settle(
    runtime.resolveContextEngine(withSlot(drive.config, ref.engineId), workspaceDir ? { workspaceDir } : {}),
  );
  if (!resolved.ok) return;
  const engine = resolved.value;
  try {
    if (runtime.describeResolvedEngine(engine)?.quarantined === true) return;
    if (!supportsEmbeddedHost(engine, drive)) return;
    const turn = new SmokeTurn(engine, drive);
    if (!(await turn.bootstrap()) || !(await turn.assemble()) || !(await turn.ingestReply())) return;
    if (!(await turn.maintain())) return;
    await turn.subagent();
  } finally {
    await settle(engine.dispose?.());
  }
}

/** False (with a host-unsupported warning) when the engine's host requirements rule out OpenClaw's embedded host. */
function supportsEmbeddedHost(engine: ContextEngine, drive: SmokeDrive): boolean {
  const hostArgs = {
    contextEngineInfo: engine.info,
    operation: 'agent-run' as const,
    host: OPENCLAW_EMBEDDED_CONTEXT_ENGINE_HOST,
  };
  const support = evaluateContextEngineHostSupport(hostArgs);
  if (support.ok) return true;
  drive.add({
    severity: 'warn',
    code: 'host-unsupported',
    where: { ...drive.ref, operation: 'agent-run' },
    message: formatContextEngineHostUnsupportedMessage(hostArgs, support),
    fix: 'OpenClaw fails closed before the run starts on this host; select the engine only where its host requirements are met',
  });
  return false;
}

/** The smoke turn's calls; each returns false when the drive stops there (a failure or a quarantine). */
class SmokeTurn {
  private readonly sessionId: string;
  private readonly sessionKey: string;
  private readonly sessionFile: string;
  private readonly messages: AgentMessage[];

  constructor(
    private readonly engine: ContextEngine,
    private readonly drive: SmokeDrive,
  ) {
    this.sessionId = `doctor-smoke-${drive.n}`;
    this.sessionKey = `agent:doctor:${this.sessionId}`;
    this.sessionFile = writeDoctorTranscript(drive.workDir, this.sessionId);
    this.messages = doctorConversation().history;
  }

  /** a call's value, or undefined when it failed or got the engine quarantined (later calls would only run legacy) */
  private async step<T>(call: () => Promise<T> | undefined): Promise<{ value: T } | undefined> {
    const result = await settle(call());
    if (this.drive.runtime.describeResolvedEngine(this.engine)?.quarantined === true || !result.ok) return undefined;
    return { value: result.value as T };
  }

  /** operations whose void result was reported (ingest runs once per reply message; one finding is enough) */
  private readonly reported = new Set<string>();

  private async lifecycleStep(
    operation: Parameters<typeof checkLifecycleResult>[1],
    call: () => Promise<unknown> | undefined,
  ): Promise<boolean> {
    const r = await this.step(call);
    if (!r) return false;
    const findings = checkLifecycleResult(this.drive.ref, operation, r.value);
    if (findings.length > 0 && !this.reported.has(operation)) {
      this.reported.add(operation);
      for (const f of findings) this.drive.add(f);
    }
    return true;
  }

  async bootstrap(): Promise<boolean> {
    const { engine, sessionId, sessionKey, sessionFile } = this;
    if (typeof engine.bootstrap !== 'function') return true;
    return this.lifecycleStep('bootstrap', () => engine.bootstrap!({ sessionId, sessionKey, sessionFile }));
  }

  async assemble(): Promise<boolean> {
    const { engine, sessionId, sessionKey } = this;
    const assembled = await this.step(() =>
      engine.assemble({
        sessionId,
        sessionKey,
        messages: this.messages,
        tokenBudget: doctorConversation().tokenBudget,
        availableTools: new Set(['read', 'write', 'exec', 'web_search']),
        model: 'doctor-smoke',
        prompt: doctorConversation().prompt,
      }),
    );
    if (!assembled) return false;
    for (const f of checkAssembleResult(this.drive.ref, assembled.value)) this.drive.add(f);
    return true;
  }

  /** The turn's reply, the way OpenClaw hands it over: afterTurn, else ingestBatch, else ingest per message. */
  async ingestReply(): Promise<boolean> {
    const { engine, sessionId, sessionKey, sessionFile, messages } = this;
    const { reply, tokenBudget } = doctorConversation();
    const after = [...messages, ...reply];
    if (typeof engine.afterTurn === 'function') {
      const done = await this.step(() =>
        engine.afterTurn!({
          sessionId,
          sessionKey,
          sessionFile,
          messages: after,
          prePromptMessageCount: messages.length,
          tokenBudget,
        }),
      );
      return done !== undefined;
    }
    if (typeof engine.ingestBatch === 'function') {
      return this.lifecycleStep('ingestBatch', () => engine.ingestBatch!({ sessionId, sessionKey, messages: reply }));
    }
    for (const message of reply) {
      if (!(await this.lifecycleStep('ingest', () => engine.ingest({ sessionId, sessionKey, message })))) return false;
    }
    return true;
  }

  async maintain(): Promise<boolean> {
    const { engine, sessionId, sessionKey, sessionFile } = this;
    if (typeof engine.maintain !== 'function') return true;
    return this.lifecycleStep('maintain', () =>
      engine.maintain!({
        sessionId,
        sessionKey,
        sessionFile,
        reason: 'turn',
        runtimeContext: {
          rewriteTranscriptEntries: async () => ({ changed: false, bytesFreed: 0, rewrittenEntries: 0 }),
        },
      }),
    );
  }

  /** prepareSubagentSpawn, then its rollback, then onSubagentEnded (each if present). */
  async subagent(): Promise<void> {
    const { engine, sessionId, sessionKey } = this;
    const childSessionKey = `${sessionKey}:subagent:doctor`;
    if (typeof engine.prepareSubagentSpawn === 'function') {
      const r = await this.step(() =>
        engine.prepareSubagentSpawn!({
          parentSessionKey: sessionKey,
          childSessionKey,
          contextMode: 'isolated',
          parentSessionId: sessionId,
        }),
      );
      if (!r) return;
      if (r.value && typeof r.value.rollback === 'function') await settle(r.value.rollback());
    }
    if (typeof engine.onSubagentEnded === 'function') {
      await this.step(() => engine.onSubagentEnded!({ childSessionKey, reason: 'completed' }));
    }
  }
}

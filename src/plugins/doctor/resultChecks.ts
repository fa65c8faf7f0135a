/**
 * Pure checks the doctor runs on what an engine returned during its smoke drive and compact probe: the
 * engine faults listed in behaviour §16.4 that a single call can reveal. Each returns DoctorFindings.
 */
import type { AgentMessage } from '../../contract';
import { estimateMessagesTokens } from '../../tokens';
import type { DoctorFinding } from './reportTypes';

export interface EngineRef {
  pluginId: string;
  engineId: string;
}

/** toolCall ids with no later toolResult, and toolResults with no earlier toolCall. */
export function findUnpairedToolMessages(messages: readonly AgentMessage[]): {
  orphanedCalls: string[];
  orphanedResults: string[];
} {
  const open = new Map<string, number>();
  const orphanedResults: string[] = [];
  for (const message of messages) {
    if (message.role === 'assistant' && Array.isArray(message.content)) {
      for (const block of message.content) if (block?.type === 'toolCall') open.set(block.id, 1);
    } else if (message.role === 'toolResult') {
      if (open.has(message.toolCallId)) open.delete(message.toolCallId);
      else orphanedResults.push(message.toolCallId);
    }
  }
  return { orphanedCalls: [...open.keys()], orphanedResults };
}

/**
 * Below this assembled size (chars/4 tokens) no estimate is judged: on a tiny sample fixed per-message overhead
 * (an engine that estimates serialized JSON, or weights tool output) dominates any ratio.
 */
export const MIN_DRIFT_SAMPLE_TOKENS = 1000;

/** An estimate is "far" when it is off by more than half the assembled size and by more than 32 tokens. */
export function isEstimateFar(estimated: number, actual: number): boolean {
  const diff = Math.abs(estimated - actual);
  return diff > 32 && diff > actual * 0.5;
}

/** Problems with the shape of an AssembleResult (empty when it is valid). */
export function describeAssembleResultShape(result: unknown): string[] {
  if (result === null || typeof result !== 'object')
    return [`the result is ${result === null ? 'null' : typeof result}, not an object`];
  const r = result as { messages?: unknown; estimatedTokens?: unknown };
  const issues: string[] = [];
  if (!Array.isArray(r.messages)) issues.push('messages is not an array');
  if (typeof r.estimatedTokens !== 'number' || !Number.isFinite(r.estimatedTokens))
    issues.push('estimatedTokens is not a number');
  return issues;
}

export function checkAssembleResult(ref: EngineRef, result: unknown): DoctorFinding[] {
  const where = { pluginId: ref.pluginId, engineId: ref.engineId, operation: 'assemble' };
  const shape = describeAssembleResultShape(result);
  if (shape.length > 0) {
    return [
      {
        severity: 'error',
        code: 'invalid-assemble-result',
        where,
        message: `invalid AssembleResult: ${shape.join(', ')}`,
        fix: 'assemble() must resolve {messages: AgentMessage[], estimatedTokens: number}',
      },
    ];
  }
  const { messages, estimatedTokens } = result as { messages: AgentMessage[]; estimatedTokens: number };
  const findings: DoctorFinding[] = [];
  const { orphanedCalls, orphanedResults } = findUnpairedToolMessages(messages);
  if (orphanedCalls.length > 0) {
    findings.push({
      severity: 'warn',
      code: 'orphaned-tool-calls',
      where,
      message: `assembled toolCall(s) without a matching toolResult: ${orphanedCalls.join(', ')}`,
      fix: 'keep each assistant toolCall together with its toolResult (drop or keep them as a pair); providers reject unpaired calls',
    });
  }
  if (orphanedResults.length > 0) {
    findings.push({
      severity: 'warn',
      code: 'orphaned-tool-results',
      where,
      message: `assembled toolResult(s) without a preceding toolCall: ${orphanedResults.join(', ')}`,
      fix: 'do not keep a toolResult whose assistant toolCall was dropped',
    });
  }
  if (messages.length > 0 && messages[0]?.role === 'assistant') {
    findings.push({
      severity: 'warn',
      code: 'assistant-first',
      where,
      message: 'assembled context starts with an assistant message',
      fix: 'start the assembled context at a user message (or a summary); several providers reject a leading assistant turn',
    });
  }
  // 0 means "no estimate" for every engine: OpenClaw never reads estimatedTokens (its precheck estimates the
  // messages itself) and its own legacy engine returns 0; anything else is compared with OpenClaw's chars/4
  // estimate, on a sample large enough to judge
  const actual = estimateMessagesTokens(messages);
  const judged = estimatedTokens !== 0 && actual >= MIN_DRIFT_SAMPLE_TOKENS;
  if (estimatedTokens < 0 || (judged && isEstimateFar(estimatedTokens, actual))) {
    findings.push({
      severity: 'warn',
      code: 'estimate-drift',
      where,
      message: `estimatedTokens far from the assembled size: reported ${estimatedTokens}, the assembled ${messages.length} message(s) are about ${actual} tokens (chars/4)`,
      fix: 'return the size of what assemble() returns (not the tokens removed or the budget), or 0 for no estimate; OpenClaw ignores it, but other hosts and tools read it',
    });
  }
  return findings;
}

/**
 * Why a `compacted: true` had no effect, or undefined. The assembled context measured before and after decides
 * when there is a measurement (an engine's own counts can say anything); else equal reported counts do.
 */
function compactNoEffect(
  before: unknown,
  after: unknown,
  measured: CompactProbeOutcome['measured'],
): string | undefined {
  const reported =
    typeof before === 'number' && before === after
      ? `compacted:true while tokensBefore == tokensAfter (${before})`
      : `compacted:true (tokensBefore ${String(before)} → tokensAfter ${String(after)})`;
  if (measured) {
    if (measured.after < measured.before) return undefined;
    return `${reported}, and the context assemble() returns did not shrink (${measured.before} → ${measured.after} tokens, chars/4)`;
  }
  return typeof before === 'number' && before === after ? reported : undefined;
}

/** A lifecycle method that must resolve a result object resolved something else. */
export function checkLifecycleResult(
  ref: EngineRef,
  method: 'bootstrap' | 'ingest' | 'ingestBatch' | 'maintain',
  value: unknown,
): DoctorFinding[] {
  if (value !== null && typeof value === 'object') return [];
  const expected = {
    bootstrap: '{bootstrapped: boolean}',
    ingest: '{ingested: boolean}',
    ingestBatch: '{ingestedCount: number}',
    maintain: '{changed, bytesFreed, rewrittenEntries}',
  }[method];
  return [
    {
      severity: 'warn',
      code: 'lifecycle-void-result',
      where: { pluginId: ref.pluginId, engineId: ref.engineId, operation: method },
      message: `${method}() returned ${value === undefined ? 'undefined' : JSON.stringify(value)} instead of a result object ${expected}`,
      fix: `resolve ${expected} from ${method}(); hosts read these fields`,
    },
  ];
}

export interface CompactProbeOutcome {
  ownsCompaction: boolean;
  /**
   * the size (chars/4 tokens) of what assemble() returned before and after a compaction the engine did itself;
   * absent when it delegated (the probe's delegate compacts nothing) or an assemble failed
   */
  measured?: { before: number; after: number };
  /** whether the engine handed the call to delegateCompactionToRuntime during the probe */
  delegated: boolean;
  result?: unknown;
  error?: string;
}

export function checkCompactProbe(ref: EngineRef, probe: CompactProbeOutcome): DoctorFinding[] {
  const where = { pluginId: ref.pluginId, engineId: ref.engineId, operation: 'compact' };
  if (probe.error !== undefined) {
    return [
      {
        severity: 'error',
        code: 'compact-probe-failed',
        where,
        message: `compact({force: true}) failed on a throwaway transcript: ${probe.error}; OpenClaw quarantines the engine (operation compact) and /compact fails`,
        fix: 'make compact() resolve {ok, compacted, reason?, result?} (delegate with delegateCompactionToRuntime when the engine does not own compaction)',
      },
    ];
  }
  const result = probe.result as
    { ok?: unknown; compacted?: unknown; result?: { tokensBefore?: unknown; tokensAfter?: unknown } } | undefined;
  if (
    !result ||
    typeof result !== 'object' ||
    typeof result.ok !== 'boolean' ||
    typeof result.compacted !== 'boolean'
  ) {
    return [
      {
        severity: 'error',
        code: 'invalid-compact-result',
        where,
        message: `invalid CompactResult: ${JSON.stringify(probe.result) ?? 'undefined'}`,
        fix: 'compact() must resolve {ok: boolean, compacted: boolean, reason?, result?}',
      },
    ];
  }
  const findings: DoctorFinding[] = [];
  if (!probe.ownsCompaction && !probe.delegated && result.compacted === false) {
    findings.push({
      severity: 'warn',
      code: 'noop-compact',
      where,
      message: 'non-owning engine with a no-op compact(): /compact and overflow recovery are disabled for this slot',
      fix: 'call delegateCompactionToRuntime(params) from compact() (openclaw/plugin-sdk/core), or set info.ownsCompaction: true and compact for real',
    });
  }
  if (result.compacted === true) {
    const noEffect = compactNoEffect(result.result?.tokensBefore, result.result?.tokensAfter, probe.measured);
    if (noEffect) {
      findings.push({
        severity: 'warn',
        code: 'compact-no-effect',
        where,
        message: noEffect,
        fix: 'report compacted: false when nothing was removed, or actually reduce the context',
      });
    }
  }
  return findings;
}

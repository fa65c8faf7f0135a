/**
 * Engine findings for one turn of one lane (pure). These are the faults real engines have (behaviour §16.4,
 * "the faults real engines have"); each finding says what happened, where (lane, turn, engine, operation) and what
 * the engine author can do about it.
 */
import type { AgentMessage } from '../../contract';
import type { Finding, FindingCode, Severity } from '../../contract/recording';
import type { CompactionOutcome } from '../recording/compactionOutcome';

export const DEFAULT_DRIFT_THRESHOLD = 0.5;

export const FINDING_SEVERITY: Record<FindingCode, Severity> = {
  'noop-compaction': 'error',
  'compaction-no-effect': 'warning',
  'compaction-refused': 'warning',
  'compaction-failed': 'error',
  'engine-call-failed': 'error',
  'estimate-drift': 'warning',
  'orphaned-tool-call': 'error',
  'orphaned-tool-result': 'error',
  'assistant-first': 'warning',
  'non-deterministic': 'warning',
  'over-budget': 'warning',
  'void-result': 'warning',
  'invalid-result': 'warning',
  'session-problem': 'warning',
  quarantined: 'error',
  'host-unsupported': 'error',
  'assemble-failed': 'error',
  'keep-recent-exceeds-budget': 'warning',
  'plugin-hooks-not-run': 'info',
  'turn-degraded-to-legacy': 'warning',
  'turn-commit-skipped': 'warning',
  'provider-error': 'warning',
  'access-denied': 'error',
  'host-unconfined': 'info',
};

export type { CompactionOutcome };

export interface TurnFindingInput {
  lane: string;
  turn: number;
  engineId: string;
  isLegacy: boolean;
  ownsCompaction: boolean;
  assemblySucceeded: boolean;
  assembleError?: string;
  /** the assembled context with per-message counts (what the model is sent) */
  assembled: readonly { message: AgentMessage; estTokens: number; tiktokenTokens: number }[];
  estimatedTokens: number | null;
  tokenBudget: number;
  driftThreshold: number;
  compactions: readonly CompactionOutcome[];
  /** keys of the first and second assemble of the same params, when checked */
  determinism?: { first: readonly string[]; second: readonly string[] };
  /** lifecycle methods that returned undefined where a result object is specified */
  voidResults: readonly string[];
  /** result fields that break the contract where OpenClaw ignores them (the call itself counted as ok) */
  invalidResults?: readonly { method: string; problem: string }[];
  quarantines: readonly { engineId: string; operation: string; reason: string }[];
  hostFailure?: string;
}

function finding(input: TurnFindingInput, code: FindingCode, message: string): Finding {
  return { code, severity: FINDING_SEVERITY[code], lane: input.lane, turn: input.turn, message };
}

/**
 * Tool-call pairing problems in an assembled context. Tool calls of an assistant message that ended `error` or
 * `aborted` are not expected to have results: OpenClaw's transcript repair (`repairToolUseResultPairing`, 2026.7.35
 * and 2026.9.6) gives them no synthetic result and keeps or drops them with whatever results exist, and the
 * provider transports leave such turns out, so they are not orphans.
 */
export function findToolPairingProblems(messages: readonly AgentMessage[]): {
  orphanedCalls: { id: string; name: string; index: number }[];
  orphanedResults: { toolCallId: string; index: number }[];
} {
  const calls = new Map<string, { name: string; index: number }>();
  const answered = new Set<string>();
  const orphanedResults: { toolCallId: string; index: number }[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'assistant') {
      const unfinished = message.stopReason === 'error' || message.stopReason === 'aborted';
      for (const block of message.content ?? []) {
        if (block.type !== 'toolCall') continue;
        calls.set(block.id, { name: block.name, index });
        if (unfinished) answered.add(block.id);
      }
    } else if (message.role === 'toolResult') {
      if (calls.has(message.toolCallId)) answered.add(message.toolCallId);
      else orphanedResults.push({ toolCallId: message.toolCallId, index });
    }
  });
  const orphanedCalls = [...calls.entries()]
    .filter(([id]) => !answered.has(id))
    .map(([id, call]) => ({ id, name: call.name, index: call.index }));
  return { orphanedCalls, orphanedResults };
}

function list<T>(items: readonly T[], show: (item: T) => string, max = 3): string {
  const shown = items.slice(0, max).map(show).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}

function engineLabel(input: TurnFindingInput): string {
  return `engine "${input.engineId}"`;
}

/** A quarantine during the turn: the lane falls back to legacy. */
function quarantineFindings(input: TurnFindingInput): Finding[] {
  const out: Finding[] = [];
  for (const q of input.quarantines) {
    out.push(
      finding(
        input,
        'quarantined',
        `Context engine "${q.engineId}" failed during ${q.operation}: ${q.reason}. It is quarantined for the rest ` +
          `of the replay and the lane falls back to "legacy". Fix the ${q.operation}() failure and replay again.`,
      ),
    );
  }
  return out;
}

/** assemble() failed: the host sent the pipeline messages. */
function assembleFailureFindings(input: TurnFindingInput): Finding[] {
  const out: Finding[] = [];
  const engine = engineLabel(input);
  if (!input.assemblySucceeded && input.assembleError !== undefined) {
    out.push(
      finding(
        input,
        'assemble-failed',
        `${engine} assemble() failed: ${input.assembleError}. The host sent the pipeline messages instead and ran ` +
          'the overflow precheck regardless of ownsCompaction.',
      ),
    );
  }
  return out;
}

/**
 * A compaction that reported compacted:true without shrinking the context. Judged by what the replay measured —
 * the assembled context before the compaction and at the next assemble — not by the engine's own
 * tokensBefore/tokensAfter (engines report those in their own units, or copy one into the other); only when the
 * replay has no measurement (no assemble followed) are the reported figures compared.
 */
function compactionNoEffect(engine: string, c: CompactionOutcome): string | undefined {
  if (!c.compacted) return undefined;
  const reported =
    c.tokensBefore !== null || c.tokensAfter !== null
      ? ` (the engine reported tokensBefore ${c.tokensBefore ?? '?'} → tokensAfter ${c.tokensAfter ?? '?'})`
      : '';
  if (c.measuredBefore !== undefined && c.measuredAfter !== undefined) {
    if (c.measuredAfter < c.measuredBefore) return undefined;
    return (
      `${engine} compact() (${c.trigger}) returned compacted:true, but its assembled context did not shrink: ` +
      `~${c.measuredBefore} tokens before, ~${c.measuredAfter} at the next assemble${reported}. ` +
      'Report compacted:false when nothing was removed, or make assemble() return the compacted context.'
    );
  }
  if (c.tokensBefore === null || c.tokensAfter === null || c.tokensBefore !== c.tokensAfter) return undefined;
  return (
    `${engine} compact() (${c.trigger}) returned compacted:true but tokensBefore == tokensAfter ` +
    `(${c.tokensBefore}): by its own figures it removed nothing. Report compacted:false when nothing was removed.`
  );
}

/** Forced compactions that compacted nothing, refused recovery, or no effect. */
function compactionFindings(input: TurnFindingInput): Finding[] {
  const out: Finding[] = [];
  const engine = engineLabel(input);
  for (const c of input.compactions) {
    if (!c.byEngine || c.error !== undefined) continue;
    if (!input.ownsCompaction && c.force && !c.compacted && !c.delegated && !input.isLegacy) {
      out.push(
        finding(
          input,
          'noop-compaction',
          `${engine} does not own compaction, yet its forced compact() (${c.trigger}) compacted nothing` +
            `${c.reason ? ` (reason: ${c.reason})` : ''}. OpenClaw has no fallback to the built-in compactor, so ` +
            '/compact and overflow recovery are disabled for this engine: delegate with delegateCompactionToRuntime().',
        ),
      );
    } else if (c.force && !c.compacted && c.trigger === 'overflow' && !c.delegated && !input.isLegacy) {
      out.push(
        finding(
          input,
          'compaction-refused',
          `${engine} refused the overflow-recovery compaction${c.reason ? ` (reason: ${c.reason})` : ''} while the ` +
            'prompt did not fit the context window. Check that compact() honours the host tokenBudget and reserve.',
        ),
      );
    }
    const noEffect = compactionNoEffect(engine, c);
    if (noEffect) out.push(finding(input, 'compaction-no-effect', noEffect));
  }
  return out;
}

/**
 * compact() threw and nothing quarantined the engine for it: OpenClaw logs the error, counts the compaction as failed
 * and goes on, so the engine is asked again the next time (2026.9.6's logical turn calls its engine without the
 * quarantine proxy; the built-in legacy engine is never behind one). Once per turn; a quarantine is its own finding.
 */
function compactionFailureFindings(input: TurnFindingInput): Finding[] {
  if (input.quarantines.some((q) => q.operation === 'compact')) return [];
  const failed = input.compactions.filter((c) => c.byEngine && c.error !== undefined);
  if (failed.length === 0) return [];
  const how = [...new Set(failed.map((c) => `${c.trigger}: ${c.error}`))].join('; ');
  const overflow = failed.some((c) => c.trigger === 'overflow');
  return [
    finding(
      input,
      'compaction-failed',
      `${engineLabel(input)} compact() threw (${how}). OpenClaw logs it, counts the compaction as failed and goes ` +
        `on without quarantining the engine${overflow ? ', so the prompt that overflowed was not sent' : ''}; ` +
        'it calls compact() again the next time. Make compact() return {ok: false, compacted: false, reason} instead.',
    ),
  ];
}

/** Tool calls and results that lost their partner, and a context that starts with an assistant message. */
function assembledShapeFindings(input: TurnFindingInput): Finding[] {
  const out: Finding[] = [];
  const engine = engineLabel(input);
  const messages = input.assembled.map((a) => a.message);
  const { orphanedCalls, orphanedResults } = findToolPairingProblems(messages);
  if (orphanedCalls.length > 0) {
    out.push(
      finding(
        input,
        'orphaned-tool-call',
        `${engine} assembled ${orphanedCalls.length} tool call(s) without their results: ` +
          `${list(orphanedCalls, (c) => `${c.name} ${c.id} (message ${c.index})`)}. Providers reject unanswered ` +
          'tool calls; keep a call and its results together.',
      ),
    );
  }
  if (orphanedResults.length > 0) {
    out.push(
      finding(
        input,
        'orphaned-tool-result',
        `${engine} assembled ${orphanedResults.length} tool result(s) without a preceding call: ` +
          `${list(orphanedResults, (r) => `${r.toolCallId} (message ${r.index})`)}. Drop results whose call was dropped.`,
      ),
    );
  }
  if (messages[0].role === 'assistant') {
    out.push(
      finding(
        input,
        'assistant-first',
        `${engine} assembled a context that starts with an assistant message. Several providers require the ` +
          'first message to be a user message.',
      ),
    );
  }
  return out;
}

/** The assembled size against the token budget, and the engine's own estimate against the counts. */
function assembledTokenFindings(input: TurnFindingInput): Finding[] {
  const out: Finding[] = [];
  const engine = engineLabel(input);
  const estTotal = input.assembled.reduce((s, a) => s + a.estTokens, 0);
  const tikTotal = input.assembled.reduce((s, a) => s + a.tiktokenTokens, 0);
  if (estTotal > input.tokenBudget && !input.isLegacy) {
    out.push(
      finding(
        input,
        'over-budget',
        `${engine} assembled ~${estTotal} tokens (OpenClaw estimate; tiktoken ${tikTotal}) for a tokenBudget of ` +
          `${input.tokenBudget}. Fit the assembled context into params.tokenBudget.`,
      ),
    );
  }

  const reported = input.estimatedTokens;
  // 0 is "not estimated" for every engine (legacy returns it), as the doctor treats it; a value that is not a
  // finite number ≥ 0 is an invalid-result finding instead
  if (reported !== null && reported !== 0 && Number.isFinite(reported) && reported > 0) {
    const within = (reference: number) =>
      reference === 0 ? reported === 0 : Math.abs(reported - reference) <= input.driftThreshold * reference;
    if (!within(tikTotal) && !within(estTotal)) {
      const pct = tikTotal > 0 ? Math.round(((reported - tikTotal) / tikTotal) * 100) : 0;
      out.push(
        finding(
          input,
          'estimate-drift',
          `${engine} reported estimatedTokens ${reported}, but the assembled messages count ${tikTotal} tokens ` +
            `(tiktoken) / ${estTotal} (OpenClaw estimate): ${pct >= 0 ? '+' : ''}${pct}%, beyond the ±` +
            `${Math.round(input.driftThreshold * 100)}% threshold. estimatedTokens should be the size of what ` +
            'assemble() returns.',
        ),
      );
    }
  }
  return out;
}

/** Two assembles with the same parameters gave different contexts. */
function determinismFindings(input: TurnFindingInput): Finding[] {
  const out: Finding[] = [];
  const engine = engineLabel(input);
  if (input.determinism) {
    const { first, second } = input.determinism;
    const same = first.length === second.length && first.every((k, i) => k === second[i]);
    if (!same) {
      let at = 0;
      while (at < first.length && at < second.length && first[at] === second[at]) at++;
      out.push(
        finding(
          input,
          'non-deterministic',
          `${engine} assembled different contexts for the same parameters: ${first.length} vs ${second.length} ` +
            `messages, first difference at message ${at}. Assembly should depend only on its inputs and engine state.`,
        ),
      );
    }
  }
  return out;
}

/** Result fields that break the contract where OpenClaw ignores them: the lane went on, as OpenClaw's would. */
function invalidResultFindings(input: TurnFindingInput): Finding[] {
  const engine = engineLabel(input);
  return (input.invalidResults ?? []).map(({ method, problem }) =>
    finding(
      input,
      'invalid-result',
      `${engine} ${method}() returned a result that breaks the contract: ${problem}. OpenClaw does not read ` +
        'it, so the lane went on as it would in OpenClaw; fix the result before a host or tool relies on it.',
    ),
  );
}

/** Methods that returned undefined where OpenClaw specifies a result object. */
function voidResultFindings(input: TurnFindingInput): Finding[] {
  const out: Finding[] = [];
  const engine = engineLabel(input);
  for (const method of input.voidResults) {
    out.push(
      finding(
        input,
        'void-result',
        `${engine} ${method}() returned undefined where OpenClaw specifies a result object. Return ` +
          (method === 'ingest'
            ? '{ ingested: boolean }.'
            : method === 'bootstrap'
              ? '{ bootstrapped: boolean }.'
              : method === 'ingestBatch'
                ? '{ ingestedCount: number }.'
                : method === 'maintain'
                  ? '{ changed, bytesFreed, rewrittenEntries }.'
                  : 'the specified result.'),
      ),
    );
  }
  return out;
}

/** The findings of one lane turn: what OpenClaw's host would do differently from what the engine expects. */
export function computeTurnFindings(input: TurnFindingInput): Finding[] {
  const assembled = input.assemblySucceeded && input.assembled.length > 0;
  return [
    ...(input.hostFailure ? [finding(input, 'host-unsupported', input.hostFailure)] : []),
    ...quarantineFindings(input),
    ...assembleFailureFindings(input),
    ...compactionFindings(input),
    ...compactionFailureFindings(input),
    ...(assembled ? assembledShapeFindings(input) : []),
    ...(assembled ? assembledTokenFindings(input) : []),
    ...determinismFindings(input),
    ...voidResultFindings(input),
    ...invalidResultFindings(input),
  ];
}

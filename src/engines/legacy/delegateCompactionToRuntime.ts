/**
 * `delegateCompactionToRuntime(params)` (behaviour §3.4; SDK `openclaw/plugin-sdk/core`): the bridge legacy's
 * `compact()` uses and that non-owning plugins should call. It hands the request to ContextScope's built-in
 * compaction (`compactTranscript`) on the session's transcript and returns the runtime's result shape.
 *
 * - transcript: `deps.resolveTranscript({sessionId, sessionFile, sessionKey, runtimeContext})`, by default
 *   `openSessionTranscript(params.sessionFile)`;
 * - `currentTokenCount`: the param, else a finite positive `runtimeContext.currentTokenCount`, floored;
 * - `tokenBudget`: the param, else `runtimeContext.tokenBudget`;
 * - settings: `deps.settings`, else resolved from `runtimeContext.config.agents.defaults.compaction` and the budget;
 * - `compactionTarget` is ignored (the built-in path has no such knob);
 * - the latest user request is carried as unresolved when the host says the compaction is run-owned
 *   (`runtimeContext.trigger` set, or `forceReason: "preflight_required"`) — ContextScope's reading of when
 *   OpenClaw passes its `requestState`.
 */
import type {
  CompactParams,
  CompactResult,
  ContextEngineRuntimeContext,
  SessionTranscriptHandle,
} from '../../contract';
import { resolveCompactionSettings, type CompactionSettings } from '../../runtime/compactionSettings';
import type { Summarizer } from '../../summarize';
import { openSessionTranscript } from '../../transcripts';
import { compactTranscript } from './compactTranscript';
import type { HarnessBehaviour } from './harnessBehaviour';

export interface TranscriptRef {
  sessionId: string;
  sessionFile?: string;
  sessionKey?: string;
  runtimeContext?: ContextEngineRuntimeContext;
}

export interface DelegateCompactionDeps {
  /** finds the live transcript for a session (default: open `sessionFile`) */
  resolveTranscript?: (ref: TranscriptRef) => Promise<SessionTranscriptHandle>;
  summarizer?: Summarizer;
  settings?: CompactionSettings;
  modelMaxTokens?: number;
  /** the release line's harness (default 2026.9) */
  harness?: HarnessBehaviour;
}

function finitePositive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

function configuredCompaction(runtimeContext: ContextEngineRuntimeContext | undefined): Record<string, unknown> {
  const config = runtimeContext?.config as { agents?: { defaults?: { compaction?: unknown } } } | undefined;
  const compaction = config?.agents?.defaults?.compaction;
  return typeof compaction === 'object' && compaction !== null ? (compaction as Record<string, unknown>) : {};
}

async function defaultResolveTranscript(ref: TranscriptRef): Promise<SessionTranscriptHandle> {
  if (!ref.sessionFile) {
    throw new Error(
      `delegateCompactionToRuntime: cannot find the transcript of session "${ref.sessionId}": compact() received no sessionFile. ` +
        'Pass sessionFile (E1/E2 hosts do), or give delegateCompactionToRuntime a resolveTranscript dependency.',
    );
  }
  return openSessionTranscript(ref.sessionFile);
}

export async function delegateCompactionToRuntime(
  params: CompactParams,
  deps: DelegateCompactionDeps = {},
): Promise<CompactResult> {
  const runtimeContext = params.runtimeContext;
  const resolve = deps.resolveTranscript ?? defaultResolveTranscript;
  const transcript = await resolve({
    sessionId: params.sessionId,
    ...(params.sessionFile !== undefined ? { sessionFile: params.sessionFile } : {}),
    ...(params.sessionKey !== undefined ? { sessionKey: params.sessionKey } : {}),
    ...(runtimeContext !== undefined ? { runtimeContext } : {}),
  });

  const runtimeCount = finitePositive(runtimeContext?.currentTokenCount);
  const currentTokenCount =
    params.currentTokenCount ?? (runtimeCount !== undefined ? Math.floor(runtimeCount) : undefined);
  const tokenBudget = params.tokenBudget ?? finitePositive(runtimeContext?.tokenBudget);
  const configured = configuredCompaction(runtimeContext);
  const settings =
    deps.settings ??
    resolveCompactionSettings({
      contextTokenBudget: tokenBudget,
      reserveTokens: configured.reserveTokens as number | undefined,
      keepRecentTokens: configured.keepRecentTokens as number | undefined,
      reserveTokensFloor: configured.reserveTokensFloor as number | undefined,
      enabled: configured.enabled as boolean | undefined,
    });

  const outcome = await compactTranscript({
    transcript,
    summarizer: deps.summarizer,
    settings,
    force: params.force,
    customInstructions: params.customInstructions,
    tokenBudget,
    currentTokenCount,
    signal: params.abortSignal,
    modelMaxTokens: deps.modelMaxTokens,
    latestRequestUnresolved: typeof runtimeContext?.trigger === 'string' || params.forceReason === 'preflight_required',
    ...(deps.harness ? { harness: deps.harness } : {}),
  });

  const result: CompactResult = { ok: outcome.ok, compacted: outcome.compacted };
  if (outcome.reason !== undefined) result.reason = outcome.reason;
  if (outcome.result) {
    const { summary, firstKeptEntryId, tokensBefore, tokensAfter, details } = outcome.result;
    result.result = { summary, firstKeptEntryId, tokensBefore, tokensAfter, details };
  }
  return result;
}

/**
 * before_compaction / after_compaction around a lane's compactions, with the payload of the OpenClaw path that
 * compaction takes (openclaw@2026.7.35):
 * - an engine that owns compaction (`compactEmbeddedPiSession` through the engine): before `{messageCount: -1,
 *   sessionFile}`, after — only when it compacted — `{messageCount: -1, compactedCount: -1, tokenCount:
 *   tokensAfter, sessionFile, previousSessionId?}`;
 * - the built-in compactor (legacy's compact, or a plugin's delegateCompactionToRuntime; `compact.ts`
 *   runBeforeCompactionHooks): before `{messageCount, tokenCount}` (the observed token count when the caller
 *   gave one, else the estimate), after — when it compacted — `{messageCount, tokenCount, compactedCount,
 *   sessionFile, previousSessionId?}`; a non-owning engine that does not delegate runs no compaction hook;
 * - the harness's in-run auto-compaction (`handleCompactionStart`/`End`): before `{messageCount, messages,
 *   sessionFile}`, after `{messageCount, compactedCount, sessionFile}`, with only `{sessionKey}` as context.
 */
import type { AgentMessage, CompactResult, ContextEngineInfo } from '../../../contract';
import { estimateMessageTokensBy } from '../../../tokens';
import { parseSessionKey } from '../../../transcripts';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';
import { hookContext, invocationOf, recordVoidReply, runHookPoint, runnableHooks } from './laneHooks';

type CompactionPath = 'engine' | 'built-in' | 'harness';

/** Lanes running a non-owning plugin engine's compact(): a delegated compaction runs the built-in path's hooks. */
const delegationScopes = new WeakMap<object, { lane: Lane; draft: TurnDraft }[]>();

function ctxOf(lane: Lane, path: CompactionPath): Record<string, unknown> {
  const sessionKey = lane.sessionParams.sessionKey ?? lane.sessionParams.sessionId;
  if (path === 'harness') return { sessionKey };
  const agentId = parseSessionKey(lane.sessionKey ?? '')?.agentId ?? 'main';
  const {
    trigger: _trigger,
    modelProviderId: _p,
    modelId: _m,
    ...ctx
  } = hookContext({
    sessionParams: lane.sessionParams,
    group: lane.group,
    agentId,
  });
  return ctx;
}

function contextMessages(lane: Lane): AgentMessage[] {
  return lane.pipelineContext().messages;
}

async function runOne(
  lane: Lane,
  draft: TurnDraft,
  hook: 'before_compaction' | 'after_compaction',
  event: Record<string, unknown>,
  path: CompactionPath,
): Promise<void> {
  if (runnableHooks(lane, [hook]).length === 0) return;
  const replies = await runHookPoint(lane, draft, [invocationOf(hook, event, ctxOf(lane, path))]);
  const reply = replies?.[0];
  if (!reply) return;
  const counts = Object.entries(event)
    .filter(([, v]) => typeof v === 'number')
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(', ');
  recordVoidReply(draft, reply, `${path} compaction: ${counts || 'no counts'}`);
}

function successorOf(
  lane: Lane,
  result: CompactResult | undefined,
  before: { sessionId: string; sessionFile: string },
) {
  const sessionFile = result?.result?.sessionFile ?? lane.transcript.sessionFile;
  const sessionId = result?.result?.sessionTarget?.sessionId ?? result?.result?.sessionId ?? lane.transcript.sessionId;
  return { sessionFile, ...(sessionId !== before.sessionId ? { previousSessionId: before.sessionId } : {}) };
}

/** The built-in compactor's hooks around `run` (legacy's compact, a plugin's delegated compaction). */
async function aroundBuiltIn(
  lane: Lane,
  draft: TurnDraft,
  currentTokenCount: number | undefined,
  run: () => Promise<CompactResult>,
): Promise<CompactResult> {
  const messages = contextMessages(lane);
  const before = { sessionId: lane.transcript.sessionId, sessionFile: lane.transcript.sessionFile };
  const tokenCount =
    currentTokenCount ??
    messages.reduce((s, m) => s + estimateMessageTokensBy(m, lane.state.profile.messageEstimator), 0);
  await runOne(lane, draft, 'before_compaction', { messageCount: messages.length, tokenCount }, 'built-in');
  const result = await run();
  if (result?.ok && result.compacted) {
    const after = contextMessages(lane).length;
    await runOne(
      lane,
      draft,
      'after_compaction',
      {
        messageCount: after,
        tokenCount: result.result?.tokensAfter,
        compactedCount: Math.max(0, messages.length - after),
        ...successorOf(lane, result, before),
      },
      'built-in',
    );
  }
  return result;
}

/**
 * Runs the engine's compact() (`run`) with the hooks of the path OpenClaw takes for `info`. `run` resolves to
 * the call's outcome; `resultOf` reads the CompactResult from it.
 */
export async function withEngineCompactionHooks<T>(
  lane: Lane,
  draft: TurnDraft,
  info: ContextEngineInfo,
  currentTokenCount: number | undefined,
  run: () => Promise<T>,
  resultOf: (outcome: T) => CompactResult | undefined,
): Promise<T> {
  if (runnableHooks(lane, ['before_compaction', 'after_compaction']).length === 0) return run();
  if (info.ownsCompaction === true) {
    const before = { sessionId: lane.transcript.sessionId, sessionFile: lane.transcript.sessionFile };
    await runOne(lane, draft, 'before_compaction', { messageCount: -1, sessionFile: before.sessionFile }, 'engine');
    const outcome = await run();
    const result = resultOf(outcome);
    if (result?.ok && result.compacted) {
      const event = {
        messageCount: -1,
        compactedCount: -1,
        tokenCount: result.result?.tokensAfter,
        ...successorOf(lane, result, before),
      };
      await runOne(lane, draft, 'after_compaction', event, 'engine');
    }
    return outcome;
  }
  if (info.id === 'legacy') {
    let outcome!: T;
    await aroundBuiltIn(lane, draft, currentTokenCount, async () => {
      outcome = await run();
      return resultOf(outcome) as CompactResult;
    });
    return outcome;
  }
  const scopes = delegationScopes.get(lane.group) ?? [];
  delegationScopes.set(lane.group, scopes);
  scopes.push({ lane, draft });
  try {
    return await run();
  } finally {
    scopes.pop();
  }
}

/** A plugin's delegateCompactionToRuntime: the built-in path's hooks when a lane of `group` is compacting. */
export function withDelegatedCompactionHooks(
  group: object,
  params: { currentTokenCount?: number },
  run: () => Promise<CompactResult>,
): Promise<CompactResult> {
  const scope = delegationScopes.get(group)?.at(-1);
  if (!scope) return run();
  return aroundBuiltIn(scope.lane, scope.draft, params.currentTokenCount, run);
}

/** The harness's auto-compaction with its hooks (`compactedCount` is the run's compaction count: 1). */
export async function withHarnessCompactionHooks<T>(lane: Lane, draft: TurnDraft, run: () => Promise<T>): Promise<T> {
  if (runnableHooks(lane, ['before_compaction', 'after_compaction']).length === 0) return run();
  const messages = contextMessages(lane);
  const sessionFile = lane.transcript.sessionFile;
  await runOne(lane, draft, 'before_compaction', { messageCount: messages.length, messages, sessionFile }, 'harness');
  const outcome = await run();
  const after = {
    messageCount: contextMessages(lane).length,
    compactedCount: 1,
    sessionFile: lane.transcript.sessionFile,
  };
  await runOne(lane, draft, 'after_compaction', after, 'harness');
  return outcome;
}

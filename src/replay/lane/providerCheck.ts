/**
 * Whether the provider overflows on the prompt an attempt is about to send — the provider's own counts first:
 *
 * 1. `recorded`: the lane's context is the one OpenClaw sent for a recorded request of this turn (a legacy turn whose
 *    compactions are the recording's, recordedUsage.ts). The provider's answer decides: an error OpenClaw classifies
 *    as a context overflow (session/contextOverflowError.ts) overflowed; otherwise its prompt tokens (usage) are
 *    compared with the lane's window, which is what OpenClaw 2026.9.6's `isContextOverflow` does for a provider that
 *    accepts an overflowing prompt, and what a lane simulating a smaller window needs.
 * 2. `never`: the model is served by a provider that truncates silently (Ollama): no overflow is ever reported.
 * 3. `scaled`: the lane sends something else; its tiktoken count is scaled by the session's measured ratio for the
 *    model (providerCalibration.ts) and compared with the window.
 * 4. `tiktoken`: the session has no usage for the model; the tiktoken count is compared with the window.
 */
import type { ProviderCheck } from '../../contract/recording';
import type { TurnDraft } from '../recording/turnDraft';
import { observedOverflowTokens } from '../session/contextOverflowError';
import { modelKeyOf, recordedRequests, truncatesSilently, type RecordedRequest } from '../session/recordedRequests';
import type { Lane } from './laneContext';
import { scaleTokens, sessionCalibration } from './providerCalibration';
import { recordedRequestIndex } from './recordedUsage';

/** The recorded request the lane's attempt re-sends, when its context is OpenClaw's. */
function recordedRequestFor(lane: Lane, draft: TurnDraft): { request?: RecordedRequest; model: ModelRef } {
  const turn = draft.turn === null ? undefined : lane.session.split.turns[draft.turn];
  const requests = turn ? recordedRequests(turn) : [];
  const fallback: ModelRef = requests[0] ?? { provider: lane.group.provider, model: lane.group.model, api: null };
  if (!turn || lane.engine.info.id !== 'legacy') return { model: fallback };
  const index = recordedRequestIndex(lane, draft, turn.index);
  const request = index === undefined ? undefined : requests[index];
  return request ? { request, model: request } : { model: fallback };
}

type ModelRef = Pick<RecordedRequest, 'provider' | 'model' | 'api'>;

/** The check the recorded request decides; undefined when it says nothing (no usage, no error: an abort). */
function recordedCheck(request: RecordedRequest, window: number): Omit<ProviderCheck, 'attempt' | 'tiktokenTokens'> {
  const base = { model: modelKeyOf(request), recordedEntryId: request.entryId };
  if (request.overflowError !== undefined) {
    const observed = observedOverflowTokens(request.overflowError);
    return {
      ...base,
      source: 'recorded',
      overflowed: true,
      ...(observed !== undefined ? { providerTokens: observed } : {}),
      recordedError: request.overflowError,
    };
  }
  const tokens = request.promptTokens;
  if (truncatesSilently(request)) {
    return { ...base, source: 'never', overflowed: false, ...(tokens !== undefined ? { providerTokens: tokens } : {}) };
  }
  // 2026.9.6 @openclaw/ai isContextOverflow: a reply that stopped for length with no output and a full window
  const filled = request.stopReason === 'length' && request.outputTokens === 0 && tokens !== undefined;
  const overflowed = tokens !== undefined && (tokens > window || (filled && tokens >= window * 0.99));
  return {
    ...base,
    source: 'recorded',
    overflowed,
    ...(tokens !== undefined ? { providerTokens: tokens } : {}),
    ...(request.error !== undefined ? { recordedError: request.error } : {}),
  };
}

/** Decide whether the provider overflows on this attempt's prompt of `localTokens` tiktoken tokens. */
export async function checkProviderOverflow(lane: Lane, draft: TurnDraft, localTokens: number): Promise<ProviderCheck> {
  const window = lane.group.contextWindow;
  const { request, model } = recordedRequestFor(lane, draft);
  const head = { attempt: draft.attemptNo, tiktokenTokens: localTokens };
  if (request && (request.promptTokens !== undefined || request.error !== undefined)) {
    return { ...head, ...recordedCheck(request, window) };
  }
  const key = modelKeyOf(model);
  if (truncatesSilently(model)) return { ...head, model: key, source: 'never', overflowed: false };
  const calibration = (await sessionCalibration(lane.session, lane.state)).get(key);
  if (!calibration) {
    return { ...head, model: key, source: 'tiktoken', overflowed: localTokens > window, providerTokens: localTokens };
  }
  const providerTokens = scaleTokens(calibration, localTokens);
  return {
    ...head,
    model: key,
    source: 'scaled',
    overflowed: providerTokens > window,
    providerTokens,
    ratio: calibration.ratio,
    overheadTokens: calibration.overheadTokens,
    measuredTurns: calibration.turns,
  };
}

/** How the check counted the prompt, for the error of a prompt that never fit. */
export function describeProviderCount(check: ProviderCheck): string {
  switch (check.source) {
    case 'recorded':
      return 'the provider’s recorded usage';
    case 'scaled':
      return `tiktoken ${check.tiktokenTokens} scaled by the session’s measured ratio ${check.ratio?.toFixed(3)}`;
    default:
      return 'tiktoken';
  }
}

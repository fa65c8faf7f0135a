/**
 * Assembling a TurnRecord from what a lane turn produced (pure): the assembled messages as references with
 * provenance and counts, the omitted transcript messages as ranges, totals, and the engine's own figures.
 */
import type { AssembleResult } from '../../contract';
import { classifyOmitted, type ClassifiedMessage, type ReferenceIndex } from './classifyProvenance';
import { countInRanges, rangesToIndices } from './indexRanges';
import type { StoredMessage } from './messageTable';
import type { AssembledRef, PrecheckRecord, TurnRecord, TurnStatus } from '../../contract/recording';
import type { TurnDraft } from './turnDraft';
import { sameRef } from '../../view/listDelta';

/** Summaries covering at most this many messages list them on the assembled reference too. */
export const INLINE_COVERS_MAX = 32;

/** The precheck of a turn whose run never started (host requirements). */
export const PRECHECK_NOT_RUN: PrecheckRecord = Object.freeze({
  skipped: true,
  skipReason: 'the run did not start (host requirements)',
  estimatedTokens: 0,
  pressureSource: 'assembled',
  promptBudgetBeforeReserve: 0,
  effectiveReserveTokens: 0,
  overflowTokens: 0,
  reducibleToolResultChars: 0,
  route: 'fits',
  shouldCompact: false,
}) as PrecheckRecord;

/** The final attempt of a turn, as far as the record needs it. */
export interface AttemptFacts {
  inputCount: number;
  pipelineRemoved: number;
  assemblySucceeded: boolean;
  classified: readonly ClassifiedMessage[];
  /** aligned with `classified`, exact counts resolved */
  stored: readonly StoredMessage[];
  result?: AssembleResult;
  precheck: PrecheckRecord;
}

export interface TurnFacts {
  lane: string;
  turn: number;
  userEntryId: string;
  promptKey: string;
  status: TurnStatus;
  error?: string;
  engine: TurnRecord['engine'];
  budget: TurnRecord['budget'];
  historyCount: number;
  /** absent when the run never started */
  attempt?: AttemptFacts;
  draft: TurnDraft;
  newMessageKeys: string[];
  turnPath?: TurnRecord['turnPath'];
  modelCallKeys?: string[];
  reference: ReferenceIndex;
  /** the session's message order, for summaries' inline covered keys */
  messageKeys: readonly string[];
}

/**
 * The refs made so far, per session reference (one per replayed session), by message key: a turn that assembles a
 * message as an earlier turn did gets that turn's ref object back, so consecutive turns share their refs instead of
 * holding a copy of the context each (refs are never changed once made).
 */
const sharedRefs = new WeakMap<ReferenceIndex, Map<string, AssembledRef>>();

function sharedRefsOf(reference: ReferenceIndex): Map<string, AssembledRef> {
  let refs = sharedRefs.get(reference);
  if (!refs) sharedRefs.set(reference, (refs = new Map()));
  return refs;
}

export function buildAssembledRefs(
  attempt: AttemptFacts,
  messageKeys: readonly string[],
  shared?: Map<string, AssembledRef>,
): AssembledRef[] {
  return attempt.classified.map((c, i) => {
    const stored = attempt.stored[i];
    const ref: AssembledRef = {
      key: c.key,
      provenance: c.provenance,
      estTokens: stored.estTokens,
      tiktokenTokens: stored.tiktokenTokens,
    };
    if (c.sourceKey !== undefined) ref.sourceKey = c.sourceKey;
    if (c.covers && countInRanges(c.covers) <= INLINE_COVERS_MAX) {
      ref.coversKeys = rangesToIndices(c.covers).map((p) => messageKeys[p]);
    }
    if (!shared) return ref;
    const earlier = shared.get(ref.key);
    if (earlier && sameRef(earlier, ref)) return earlier;
    shared.set(ref.key, ref);
    return ref;
  });
}

export function buildTurnRecord(facts: TurnFacts): TurnRecord {
  const { attempt, draft } = facts;
  const assembled = attempt ? buildAssembledRefs(attempt, facts.messageKeys, sharedRefsOf(facts.reference)) : [];
  const precheck = attempt?.precheck ?? PRECHECK_NOT_RUN;
  const result = attempt?.result;
  return {
    lane: facts.lane,
    turn: facts.turn,
    userEntryId: facts.userEntryId,
    promptKey: facts.promptKey,
    status: facts.status,
    ...(facts.error !== undefined ? { error: facts.error } : {}),
    engine: facts.engine,
    budget: facts.budget,
    historyCount: facts.historyCount,
    inputCount: attempt?.inputCount ?? 0,
    pipelineRemoved: attempt?.pipelineRemoved ?? 0,
    assemblySucceeded: attempt?.assemblySucceeded ?? false,
    assembled,
    totals: {
      estTokens: assembled.reduce((s, r) => s + r.estTokens, 0),
      tiktokenTokens: assembled.reduce((s, r) => s + r.tiktokenTokens, 0),
      precheckTokens: precheck.estimatedTokens,
    },
    omitted: classifyOmitted(facts.historyCount, attempt?.classified ?? [], facts.reference),
    estimatedTokens: typeof result?.estimatedTokens === 'number' ? result.estimatedTokens : null,
    systemPromptAddition: typeof result?.systemPromptAddition === 'string' ? result.systemPromptAddition : null,
    promptAuthority: result?.promptAuthority ?? null,
    precheck: { ...precheck },
    attempts: draft.attemptNo + 1,
    ...(draft.providerChecks.length > 0 ? { providerChecks: draft.providerChecks.map((c) => ({ ...c })) } : {}),
    calls: draft.calls,
    events: draft.events,
    newMessageKeys: facts.newMessageKeys,
    ...(facts.turnPath ? { turnPath: facts.turnPath } : {}),
    ...(facts.modelCallKeys ? { modelCallKeys: facts.modelCallKeys } : {}),
  };
}

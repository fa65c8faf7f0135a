/**
 * The recorded lane: OpenClaw's own `context.compiled` contexts as a read-only lane of the Recording, aligned
 * with the replayed lanes turn by turn, and the verdict per turn whether the compared lane (the first root
 * legacy lane, else the first root lane) assembled exactly that.
 *
 * A recorded message that matches the compared lane's message at the same place (see compareContext.ts) is stored
 * under that message's key, so the app shows them as the same message; one that matches a transcript message
 * (same role and timestamp) gets its key; anything else is stored as recorded, truncation marks included.
 */
import type { AgentMessage } from '../../contract';
import type { LaneRecord, TrajectoryReport, TrajectoryTurn, TurnRecord } from '../../contract/recording';
import type { SessionTrajectory } from '../../transcripts';
import { buildAssembledRefs, PRECHECK_NOT_RUN } from '../recording/buildTurnRecord';
import { classifyAssembled, classifyOmitted, roleTimestampKey } from '../recording/classifyProvenance';
import { hashKeyOf } from '../recording/messageIdentity';
import type { MessageTable, StoredMessage } from '../recording/messageTable';
import type { PreparedSession } from '../session/prepareSession';
import { alignCompiledContexts, type CompiledContext } from './compiledContexts';
import { compareRecordedContext } from './compareContext';

export const RECORDED_LANE_ID = 'recorded';

export interface RecordedLaneInput {
  root: PreparedSession;
  trajectory: SessionTrajectory;
  table: MessageTable;
  lanes: readonly LaneRecord[];
  turns: Readonly<Record<string, TurnRecord[]>>;
  /** the recorded lane's id (RECORDED_LANE_ID unless a replayed lane has it) */
  laneId: string;
}

export interface RecordedLane {
  record: LaneRecord;
  turns: TurnRecord[];
  report: TrajectoryReport;
}

function comparedLane(lanes: readonly LaneRecord[]): LaneRecord | undefined {
  const roots = lanes.filter((l) => !l.parentLane && l.source !== 'trajectory');
  return roots.find((l) => l.source === 'legacy') ?? roots[0];
}

function sourceOf(trajectory: SessionTrajectory): LaneRecord['recorded'] & object {
  return trajectory.source.storage === 'jsonl'
    ? { storage: 'jsonl', location: trajectory.source.file }
    : { storage: 'sqlite', location: trajectory.source.database };
}

/** The key a recorded message is stored under (see the file comment), interned in the table. */
function storeRecorded(
  recorded: unknown,
  replayed: StoredMessage | undefined,
  input: RecordedLaneInput,
): StoredMessage {
  if (replayed && compareRecordedContext([recorded], [replayed.message]).exact) return replayed;
  const record = recorded as { role?: unknown; timestamp?: unknown };
  const timeKey = roleTimestampKey(record.role, record.timestamp);
  const sameTime = timeKey === undefined ? undefined : input.root.reference.byRoleTimestamp.get(timeKey);
  const reference = sameTime === undefined ? undefined : input.table.get(sameTime);
  if (reference && compareRecordedContext([recorded], [reference.message]).exact) return reference;
  const message = recorded as AgentMessage;
  return input.table.intern(hashKeyOf(message), message);
}

function placeholderTurn(laneId: string, t: number, input: RecordedLaneInput, compared?: TurnRecord): TurnRecord {
  const turn = input.root.split.turns[t]!;
  return {
    lane: laneId,
    turn: t,
    userEntryId: turn.userEntry.id,
    promptKey: turn.userEntry.id,
    status: 'ok',
    engine: { requestedId: 'recorded', engineId: 'recorded', quarantined: false, ownsCompaction: false },
    budget: compared?.budget ?? {
      contextWindow: 0,
      reserveTokens: 0,
      promptBudget: 0,
      tokenBudget: 0,
      renderedPromptTokens: 0,
    },
    historyCount: input.root.info.turnStarts[t] ?? 0,
    inputCount: 0,
    pipelineRemoved: 0,
    assemblySucceeded: false,
    assembled: [],
    totals: { estTokens: 0, tiktokenTokens: 0, precheckTokens: 0 },
    omitted: { dropped: [], summarized: [], droppedCount: 0, summarizedCount: 0, keptCount: 0 },
    estimatedTokens: null,
    systemPromptAddition: null,
    promptAuthority: null,
    precheck: { ...PRECHECK_NOT_RUN, skipReason: 'recorded by OpenClaw: no precheck was replayed' },
    attempts: 0,
    calls: [],
    events: [],
    newMessageKeys: compared?.newMessageKeys ?? [],
  };
}

async function recordedTurn(
  laneId: string,
  context: CompiledContext,
  input: RecordedLaneInput,
  compared: TurnRecord | undefined,
): Promise<TurnRecord> {
  const base = placeholderTurn(laneId, context.turn, input, compared);
  const recorded = (context.messages ?? []).filter((m) => !isArrayMarker(m));
  const replayed = (compared?.assembled ?? []).map((ref) => input.table.get(ref.key));
  const stored = recorded.map((m, i) => storeRecorded(m, replayed[i], input));
  const tail = cutTail(context, stored, replayed, compared?.lane);
  stored.push(...tail.messages);
  const byObject = new Map<AgentMessage, string>(stored.map((s) => [s.message, s.key]));
  const classified = classifyAssembled(
    stored.map((s) => s.message),
    { reference: input.root.reference, identityKey: (m) => byObject.get(m), hashKey: hashKeyOf },
  );
  for (const c of classified)
    if (c.covers && c.covers.length > 0) input.table.setCovers(c.key, input.root.info.sessionId, c.covers);
  input.table.flushQueued();
  await input.table.ensureCounted(stored);
  const assembled = buildAssembledRefs(
    { inputCount: 0, pipelineRemoved: 0, assemblySucceeded: true, classified, stored, precheck: base.precheck },
    input.root.info.messageKeys,
  );
  return {
    ...base,
    inputCount: stored.length,
    assemblySucceeded: true,
    assembled,
    totals: {
      estTokens: assembled.reduce((s, r) => s + r.estTokens, 0),
      tiktokenTokens: assembled.reduce((s, r) => s + r.tiktokenTokens, 0),
      precheckTokens: 0,
    },
    omitted: classifyOmitted(base.historyCount, classified, input.root.reference),
    attempts: context.attempts,
    events: tail.note ? [{ type: 'warning', lane: laneId, turn: context.turn, seq: 0, message: tail.note }] : [],
  };
}

/**
 * OpenClaw's trajectory keeps the first 64 messages of a longer context and its length. When those 64 are the
 * compared lane's and the lengths agree, the rest is shown from that lane (said in a warning); otherwise the rest
 * is unknown, which the warning says too (they are not dropped messages).
 */
function cutTail(
  context: CompiledContext,
  stored: readonly StoredMessage[],
  replayed: readonly (StoredMessage | undefined)[],
  comparedLane: string | undefined,
): { messages: StoredMessage[]; note?: string } {
  const marker = (context.messages ?? []).find(isArrayMarker) as { originalLength?: unknown } | undefined;
  const length = Number(marker?.originalLength);
  if (!marker || !Number.isFinite(length) || length <= stored.length) return { messages: [] };
  const cut = `OpenClaw's trajectory kept the first ${stored.length} of ${length} messages`;
  const prefixMatches = stored.every((s, i) => replayed[i] !== undefined && s.key === replayed[i]!.key);
  if (!prefixMatches || replayed.length !== length || replayed.some((r) => r === undefined))
    return { messages: [], note: `${cut}; messages ${stored.length + 1}–${length} are unknown (not dropped).` };
  return {
    messages: replayed.slice(stored.length) as StoredMessage[],
    note:
      `${cut}; messages ${stored.length + 1}–${length} are shown from lane ${comparedLane ?? '?'}, whose first ` +
      `${stored.length} and count match the recording.`,
  };
}

function isArrayMarker(value: unknown): boolean {
  const v = value as { truncated?: unknown; reason?: unknown } | null;
  return v !== null && typeof v === 'object' && v.truncated === true && v.reason === 'trajectory-array-size-limit';
}

function verdictOf(
  t: number,
  context: CompiledContext | undefined,
  compared: TurnRecord | undefined,
  input: RecordedLaneInput,
): TrajectoryTurn {
  const none = { turn: t, runId: context?.runId ?? null, recordedCount: null, replayedCount: null, truncated: false };
  if (!context) return { ...none, verdict: 'not-recorded' };
  if (!context.messages || !compared) return { ...none, verdict: 'unverifiable', truncated: !context.messages };
  const replayed = compared.assembled.map((ref) => input.table.get(ref.key)?.message);
  const result = compareRecordedContext(context.messages, replayed);
  return {
    ...none,
    verdict: result.exact ? 'exact' : 'differs',
    recordedCount: result.recordedCount,
    replayedCount: result.replayedCount,
    truncated: result.truncated,
    ...(result.difference ? { difference: result.difference } : {}),
  };
}

/** The recorded lane and its verdicts for a replayed session that has a trajectory. */
export async function buildRecordedLane(input: RecordedLaneInput): Promise<RecordedLane> {
  const against = comparedLane(input.lanes);
  const aligned = alignCompiledContexts(input.trajectory.events, input.root);
  const source = sourceOf(input.trajectory);
  const laneTurns: TurnRecord[] = [];
  const verdicts: TrajectoryTurn[] = [];
  for (let t = 0; t < input.root.split.turns.length; t++) {
    const compared = against ? input.turns[against.id]?.[t] : undefined;
    const context = aligned.byTurn.get(t);
    laneTurns.push(
      context?.messages
        ? await recordedTurn(input.laneId, context, input, compared)
        : {
            ...placeholderTurn(input.laneId, t, input, compared),
            error: context
              ? 'the recorded context.compiled event was cut whole (over 256 KiB)'
              : 'no context.compiled recorded for this turn',
          },
    );
    verdicts.push(verdictOf(t, context, compared, input));
  }
  const record: LaneRecord = {
    id: input.laneId,
    label: 'recorded (OpenClaw trajectory)',
    spec: `trajectory:${source.location}`,
    source: 'trajectory',
    recorded: source,
    requestedEngineId: 'recorded',
    contextWindow: against?.contextWindow ?? 0,
    reserveTokens: against?.reserveTokens ?? 0,
    keepRecentTokens: against?.keepRecentTokens ?? 0,
    host: { id: 'recorded', label: 'OpenClaw (recorded)', capabilities: [] },
    sessionId: input.root.info.sessionId,
    sessionKey: against?.sessionKey ?? null,
    turnCount: laneTurns.length,
  };
  const report: TrajectoryReport = {
    lane: input.laneId,
    against: against?.id ?? null,
    source,
    contexts: aligned.total,
    unaligned: aligned.unaligned,
    turns: verdicts,
    exact: verdicts.filter((v) => v.verdict === 'exact').length,
    differs: verdicts.filter((v) => v.verdict === 'differs').length,
  };
  return { record, turns: laneTurns, report };
}

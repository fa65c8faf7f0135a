/**
 * How the session's own provider counts relate to the local tokenizer: for every recorded turn whose first request
 * has usage, the provider's prompt tokens against the tiktoken count of the same prompt — the context OpenClaw
 * sent (the reference transcript from the latest compaction's first kept message, with its summary) plus the
 * replay's system prompt — per model (`provider/model`). A tokenizer of another family counts CJK text, code and
 * JSON very differently (MiniMax on Chinese: tiktoken about 2.4× the provider), so a lane that assembles something
 * else has its local count scaled by this before it is compared with the window.
 *
 * The fit is `provider ≈ ratio × local + overheadTokens`: the provider also counts the system prompt and tool schemas
 * OpenClaw sent, which the recording does not hold (the overhead). With one sample, or samples too alike to fit a
 * line (spread over less than a fifth of the largest), or a fit that is not an increasing line with a non-negative
 * overhead, the ratio is the sums' quotient and the overhead 0 — which then includes the overhead in the ratio.
 * Samples after a `reset` entry are left out (what OpenClaw kept is not known).
 *
 * Cost: the tiktoken counts of the session's messages up to its last recorded request, which the background counter
 * works on from the start of the replay (a legacy lane needs them too); a lane that needs the ratio waits for them
 * on its first non-recorded check.
 */
import type { SessionEntry } from '../../contract';
import { projectSessionEntryMessage } from '../../transcripts';
import { messageTokenText } from '../../tokens';
import type { StoredMessage } from '../recording/messageTable';
import type { PreparedSession } from '../session/prepareSession';
import { modelKeyOf, recordedRequests } from '../session/recordedRequests';
import type { ReplayState } from './replayState';

export interface ModelCalibration {
  /** provider tokens per tiktoken token */
  ratio: number;
  /** provider tokens the local count does not see (system prompt and tools OpenClaw sent) */
  overheadTokens: number;
  /** recorded turns it was measured on */
  turns: number;
}

/** By `provider/model`. */
export type SessionCalibration = ReadonlyMap<string, ModelCalibration>;

interface Sample {
  model: string;
  /** reference positions [start, end) of the context messages (the turn's prompt included) */
  start: number;
  end: number;
  /** the compaction summary the context starts with */
  summary?: SessionEntry;
  provider: number;
}

/** A line needs samples spread over at least this share of the largest local count. */
const MIN_SPREAD = 0.2;

/** Where the context of each recorded first request starts, walking the active path once. */
function collectSamples(session: PreparedSession): Sample[] {
  const firstRequests = new Map<string, { model: string; provider: number }>();
  for (const turn of session.split.turns) {
    const request = recordedRequests(turn)[0];
    if (!request || request.error !== undefined || request.stopReason === 'aborted') continue;
    if (request.promptTokens === undefined) continue;
    firstRequests.set(request.entryId, { model: modelKeyOf(request), provider: request.promptTokens });
  }
  const position = session.reference.position;
  const samples: Sample[] = [];
  let next = 0;
  let boundary: { start: number; summary?: SessionEntry } | null = { start: 0 };
  for (const entry of session.path) {
    if (entry.type === 'compaction') {
      const kept = entry.firstKeptEntryId ? position.get(entry.firstKeptEntryId) : undefined;
      boundary = { start: kept !== undefined && kept < next ? kept : next, summary: entry };
      continue;
    }
    if (entry.type === 'reset') boundary = null;
    const at = position.get(entry.id);
    const first = firstRequests.get(entry.id);
    if (first && boundary && at !== undefined) {
      samples.push({ ...boundary, model: first.model, end: at, provider: first.provider });
    }
    if (at !== undefined) next = at + 1;
  }
  return samples;
}

function fit(points: readonly { local: number; provider: number }[]): ModelCalibration {
  const n = points.length;
  const sumLocal = points.reduce((s, p) => s + p.local, 0);
  const sumProvider = points.reduce((s, p) => s + p.provider, 0);
  const quotient: ModelCalibration = { ratio: sumProvider / Math.max(1, sumLocal), overheadTokens: 0, turns: n };
  if (n < 2) return quotient;
  const meanLocal = sumLocal / n;
  const meanProvider = sumProvider / n;
  let cov = 0;
  let variance = 0;
  for (const p of points) {
    cov += (p.local - meanLocal) * (p.provider - meanProvider);
    variance += (p.local - meanLocal) ** 2;
  }
  const largest = Math.max(...points.map((p) => p.local));
  const spread = largest - Math.min(...points.map((p) => p.local));
  if (variance <= 0 || spread < MIN_SPREAD * largest) return quotient;
  const ratio = cov / variance;
  const overhead = meanProvider - ratio * meanLocal;
  if (!(ratio > 0) || overhead < 0) return quotient;
  return { ratio, overheadTokens: Math.round(overhead), turns: n };
}

async function measure(session: PreparedSession, state: ReplayState): Promise<SessionCalibration> {
  const samples = collectSamples(session);
  if (samples.length === 0) return new Map();
  const end = Math.max(...samples.map((s) => s.end));
  const stored = session.info.messageKeys
    .slice(0, end)
    .map((key) => state.table.get(key))
    .filter((m): m is StoredMessage => m !== undefined);
  await state.table.ensureCounted(stored);
  const prefix = [0];
  for (const key of session.info.messageKeys.slice(0, end)) {
    prefix.push(prefix[prefix.length - 1]! + Math.max(0, state.table.get(key)?.tiktokenTokens ?? 0));
  }
  const system = await state.counter.count(state.systemPrompt);
  const summaries = new Map<SessionEntry, number>();
  const summaryTokens = async (entry: SessionEntry): Promise<number> => {
    const known = summaries.get(entry);
    if (known !== undefined) return known;
    const message = projectSessionEntryMessage(entry);
    const count = message ? await state.counter.count(messageTokenText(message).text) : 0;
    summaries.set(entry, count);
    return count;
  };
  const byModel = new Map<string, { local: number; provider: number }[]>();
  for (const sample of samples) {
    const summary = sample.summary ? await summaryTokens(sample.summary) : 0;
    const local = system + summary + prefix[sample.end]! - prefix[Math.min(sample.start, sample.end)]!;
    if (local <= 0) continue;
    const points = byModel.get(sample.model) ?? [];
    points.push({ local, provider: sample.provider });
    byModel.set(sample.model, points);
  }
  return new Map([...byModel].map(([model, points]) => [model, fit(points)]));
}

const measured = new WeakMap<PreparedSession, Promise<SessionCalibration>>();

/** The session's measured ratios (measured once per replayed session, when a lane first needs them). */
export function sessionCalibration(session: PreparedSession, state: ReplayState): Promise<SessionCalibration> {
  let calibration = measured.get(session);
  if (!calibration) measured.set(session, (calibration = measure(session, state)));
  return calibration;
}

/** The local count in provider tokens. */
export function scaleTokens(calibration: ModelCalibration, localTokens: number): number {
  return Math.round(calibration.ratio * localTokens + calibration.overheadTokens);
}

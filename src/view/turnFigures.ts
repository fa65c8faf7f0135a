/**
 * Per turn and lane, the figures every front end draws: tokens against the budget, what was kept, summarized and
 * dropped, the assembled messages by provenance, the status, the precheck route, the chart marker and the events —
 * plus, per turn, whether the lanes differ (see lanesDiffer.ts). `contextscope compare`, the HTML report's table
 * and chart, and the app's timeline and budget chart all read these, so they cannot disagree.
 */
import { turnCountOf, type CompareInput } from './compareInput';
import { turnDifference } from './lanesDiffer';
import { messagePreview, messageText } from './messageText';
import { describeEvent } from './turnEvents';
import type { Provenance, Recording, TurnRecord } from './viewTypes';

/**
 * What the chart plots: `precheck` — the precheck's estimate of the whole prompt (messages + system prompt +
 * prompt), the figure OpenClaw compares with the compaction threshold; `estimate` / `tiktoken` — the assembled
 * messages alone (OpenClaw's estimate or tiktoken), the figures compared with assemble's token budget.
 */
export type TokenMeasure = 'precheck' | 'estimate' | 'tiktoken';

/** Whether `measure` is compared with the token budget (assembled messages) rather than the compaction threshold. */
export const measuresAssembled = (measure: TokenMeasure): boolean => measure !== 'precheck';
export type TurnMarker = 'quarantine' | 'compaction';

export interface LaneTurnFigures {
  status: TurnRecord['status'];
  error: string | null;
  /**
   * assembled tokens (OpenClaw's estimate, tiktoken) and the precheck's estimate of the whole prompt — of the prompt
   * the turn ended with: after a compaction, the compacted one
   */
  tokens: { estimate: number; tiktoken: number; precheck: number };
  /**
   * The precheck estimate that made the turn compact (the highest `cause.tokens` of its precheck-caused compactions,
   * the figure its cause line compares with the threshold), or null. `tokens.precheck` is the estimate after the
   * compaction: a chart that plots only that puts the compaction far below the threshold it crossed.
   */
  precheckBeforeCompaction: number | null;
  /** the tokenBudget passed to assemble */
  tokenBudget: number;
  promptBudget: number;
  contextWindow: number;
  /** the engine's own estimatedTokens */
  estimatedTokens: number | null;
  assembledCount: number;
  kept: number;
  summarized: number;
  dropped: number;
  /** assembled messages by provenance */
  provenance: Record<Provenance, number>;
  /** the precheck route, or `skipped` */
  route: string;
  marker: TurnMarker | null;
  /** one short line per event of the turn */
  events: string[];
  /** the engine that served the turn (legacy after a quarantine) */
  engineId: string;
  quarantined: boolean;
}

export interface TurnFiguresRow {
  turn: number;
  /** the turn's user prompt, one line */
  prompt: string;
  /** one per column; null when that lane has no such turn */
  cells: (LaneTurnFigures | null)[];
  /** the lanes differ in what they assembled */
  differs: boolean;
  /** one line on how they differ ('' when they agree) */
  difference: string;
}

/** quarantine wins over compaction: it is the rarer and the more important marker. */
export function turnMarker(record: TurnRecord): TurnMarker | null {
  let marker: TurnMarker | null = record.engine.quarantined ? 'quarantine' : null;
  for (const event of record.events) {
    if (event.type === 'quarantine') return 'quarantine';
    if (event.type === 'compaction' && marker === null) marker = 'compaction';
  }
  return marker;
}

/** The highest precheck estimate a compaction of the turn was decided on (null: none was decided on the precheck). */
function precheckBeforeCompaction(record: TurnRecord): number | null {
  let highest: number | null = null;
  for (const event of record.events) {
    if (event.type !== 'compaction' || event.cause?.measure !== 'precheck') continue;
    highest = Math.max(highest ?? 0, event.cause.tokens);
  }
  return highest;
}

export function laneTurnFigures(record: TurnRecord): LaneTurnFigures {
  const provenance: Record<Provenance, number> = { raw: 0, modified: 0, summary: 0, synthetic: 0 };
  for (const ref of record.assembled) provenance[ref.provenance]++;
  return {
    status: record.status,
    error: record.error ?? null,
    tokens: {
      estimate: record.totals.estTokens,
      tiktoken: record.totals.tiktokenTokens,
      precheck: record.precheck.estimatedTokens,
    },
    precheckBeforeCompaction: precheckBeforeCompaction(record),
    tokenBudget: record.budget.tokenBudget,
    promptBudget: record.budget.promptBudget,
    contextWindow: record.budget.contextWindow,
    estimatedTokens: record.estimatedTokens,
    assembledCount: record.assembled.length,
    kept: record.omitted.keptCount,
    summarized: record.omitted.summarizedCount,
    dropped: record.omitted.droppedCount,
    provenance,
    route: record.precheck.skipped ? 'skipped' : record.precheck.route,
    marker: turnMarker(record),
    events: record.events.map(describeEvent),
    engineId: record.engine.engineId,
    quarantined: record.engine.quarantined,
  };
}

export function tokensOf(figures: LaneTurnFigures, measure: TokenMeasure): number {
  return figures.tokens[measure];
}

/** The user prompt of a turn as one line (from the first lane that has the turn). */
export function turnPrompt(recording: Recording, records: readonly (TurnRecord | undefined)[]): string {
  const first = records.find((r): r is TurnRecord => r !== undefined);
  const prompt = first ? recording.messages[first.promptKey] : undefined;
  return prompt ? messagePreview(messageText(prompt.message), 120) : '';
}

/**
 * One turn's row: each column's figures and whether the lanes differ. A turn's row reads that turn's records only,
 * so a view that grows with a streaming replay can keep the rows of the turns it has and build the new ones.
 */
export function turnFiguresRow(input: CompareInput, turn: number): TurnFiguresRow {
  const records = input.columns.map((c) => c.recording.turns[c.lane.id]?.[turn]);
  const difference = turnDifference(input, turn);
  return {
    turn,
    prompt: turnPrompt(input.columns[0]!.recording, records),
    cells: records.map((record) => (record ? laneTurnFigures(record) : null)),
    differs: difference.differs,
    difference: difference.summary,
  };
}

/** One row per turn with each column's figures and whether the lanes differ. */
export function turnFiguresTable(input: CompareInput): TurnFiguresRow[] {
  const rows: TurnFiguresRow[] = [];
  for (let turn = 0; turn < turnCountOf(input); turn++) rows.push(turnFiguresRow(input, turn));
  return rows;
}

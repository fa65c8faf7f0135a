/**
 * Rows of the Timeline: one per turn, one cell per lane (side by side), each cell with the figures and the
 * event badges of that lane's turn. Pure; findings are looked up through an index built once.
 */
import type { Finding, LaneRecord, Recording, TurnRecord } from '../recordingTypes';
import { assembledTokens, type TokenMeasure } from './budgetSeries';
import { messagePreview, messageText } from './messageText';
import { indexFindings, turnKey } from './turnIndex';

export type BadgeKind = 'status' | 'quarantine' | 'compaction' | 'spawn' | 'host' | 'finding' | 'warning';

export interface TimelineBadge {
  kind: BadgeKind;
  /** short text on the badge */
  text: string;
  /** the details (tooltip and accessible name) */
  title: string;
  tone: 'bad' | 'warn' | 'info';
}

export interface TimelineCell {
  tokens: number;
  budget: number;
  overBudget: boolean;
  assembledCount: number;
  kept: number;
  summarized: number;
  dropped: number;
  status: TurnRecord['status'];
  badges: TimelineBadge[];
}

export interface TimelineRow {
  turn: number;
  /** the user prompt of the turn, one line */
  prompt: string;
  /** aligned with the lanes passed in; null when that lane has no such turn */
  cells: (TimelineCell | null)[];
  /** the lanes disagree on tokens or on what they kept, summarized or dropped */
  differs: boolean;
}

const STATUS_TEXT: Record<TurnRecord['status'], string> = {
  ok: 'ok',
  prompt_error: 'prompt error',
  aborted: 'aborted',
  host_unsupported: 'host unsupported',
};

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function turnBadges(record: TurnRecord, findings: readonly Finding[]): TimelineBadge[] {
  const badges: TimelineBadge[] = [];
  if (record.status !== 'ok') {
    badges.push({
      kind: 'status',
      text: STATUS_TEXT[record.status],
      title: record.error ?? STATUS_TEXT[record.status],
      tone: 'bad',
    });
  }
  const quarantines = record.events.filter((e) => e.type === 'quarantine');
  if (quarantines.length > 0 || record.engine.quarantined) {
    const reasons = quarantines.map((q) => `${q.engineId} quarantined in ${q.operation}: ${q.reason}`);
    badges.push({
      kind: 'quarantine',
      text: 'quarantine',
      title:
        reasons.length > 0
          ? reasons.join('\n')
          : `${record.engine.requestedId} is quarantined; ${record.engine.engineId} served this turn`,
      tone: 'bad',
    });
  }
  const compactions = record.events.filter((e) => e.type === 'compaction');
  if (compactions.length > 0) {
    const lines = compactions.map(
      (c) =>
        `${c.trigger} compaction by ${c.engineId}: ${c.compacted ? `${c.tokensBefore ?? '?'} → ${c.tokensAfter ?? '?'} tokens` : `not compacted${c.reason ? ` (${c.reason})` : ''}`}`,
    );
    const refused = compactions.every((c) => !c.compacted);
    badges.push({
      kind: 'compaction',
      text: compactions.length > 1 ? `compaction ×${compactions.length}` : 'compaction',
      title: lines.join('\n'),
      tone: refused ? 'warn' : 'info',
    });
  }
  const spawns = record.events.filter((e) => e.type === 'subagentSpawn');
  if (spawns.length > 0) {
    badges.push({
      kind: 'spawn',
      text: spawns.length > 1 ? `spawn ×${spawns.length}` : 'spawn',
      title: spawns
        .map(
          (s) =>
            `subagent ${s.childSessionKey ?? s.toolCallId} (${s.contextMode}${s.lightContext ? ', light context' : ''})${s.error ? `: ${s.error}` : ''}`,
        )
        .join('\n'),
      tone: spawns.some((s) => s.error) ? 'warn' : 'info',
    });
  }
  const hostFailures = record.events.filter((e) => e.type === 'hostRequirement');
  if (hostFailures.length > 0) {
    badges.push({ kind: 'host', text: 'host', title: hostFailures.map((h) => h.message).join('\n'), tone: 'bad' });
  }
  if (findings.length > 0) {
    const hasError = findings.some((f) => f.severity === 'error');
    badges.push({
      kind: 'finding',
      text: plural(findings.length, 'finding'),
      title: findings.map((f) => `${f.severity} ${f.code}: ${f.message}`).join('\n'),
      tone: hasError ? 'bad' : 'warn',
    });
  }
  const warnings = record.events.filter((e) => e.type === 'warning');
  if (warnings.length > 0) {
    badges.push({
      kind: 'warning',
      text: plural(warnings.length, 'warning'),
      title: warnings.map((w) => w.message).join('\n'),
      tone: 'warn',
    });
  }
  return badges;
}

export function timelineCell(record: TurnRecord, findings: readonly Finding[], measure: TokenMeasure): TimelineCell {
  const tokens = assembledTokens(record, measure);
  return {
    tokens,
    budget: record.budget.tokenBudget,
    overBudget: tokens > record.budget.tokenBudget,
    assembledCount: record.assembled.length,
    kept: record.omitted.keptCount,
    summarized: record.omitted.summarizedCount,
    dropped: record.omitted.droppedCount,
    status: record.status,
    badges: turnBadges(record, findings),
  };
}

function cellsDiffer(cells: readonly (TimelineCell | null)[]): boolean {
  const present = cells.filter((c): c is TimelineCell => c !== null);
  if (present.length !== cells.length) return true;
  const [first, ...rest] = present;
  if (!first) return false;
  return rest.some(
    (c) =>
      c.tokens !== first.tokens ||
      c.kept !== first.kept ||
      c.summarized !== first.summarized ||
      c.dropped !== first.dropped,
  );
}

export function buildTimelineRows(
  recording: Recording,
  lanes: readonly LaneRecord[],
  measure: TokenMeasure = 'estimate',
): TimelineRow[] {
  const findings = indexFindings(recording);
  const laneTurns = lanes.map((lane) => recording.turns[lane.id] ?? []);
  const turnCount = Math.max(0, ...laneTurns.map((turns) => turns.length));
  const rows: TimelineRow[] = [];
  for (let turn = 0; turn < turnCount; turn++) {
    const cells = laneTurns.map((turns, i) => {
      const record = turns[turn];
      return record ? timelineCell(record, findings.get(turnKey(lanes[i]!.id, turn)) ?? [], measure) : null;
    });
    const first = laneTurns.map((turns) => turns[turn]).find((r): r is TurnRecord => r !== undefined);
    const prompt = first ? recording.messages[first.promptKey] : undefined;
    rows.push({
      turn,
      prompt: prompt ? messagePreview(messageText(prompt.message), 120) : '',
      cells,
      differs: cellsDiffer(cells),
    });
  }
  return rows;
}

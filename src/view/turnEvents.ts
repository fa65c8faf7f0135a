/**
 * A turn's events as people read them: one short line per event (the CLI table, the HTML report, chart tooltips)
 * and the badges the app's timeline draws (status, quarantine, compaction, spawn, host, errors, warnings, notes —
 * the last three as turnProblems.ts defines them, so a badge is what the error / warning / finding filters find).
 */
import { compactionCauseLine } from './compactionCause';
import { STATUS_TEXT, turnProblems } from './turnProblems';
import type { Finding, ReplayEvent, TurnRecord } from './viewTypes';

export { STATUS_TEXT };

/** One line per event, e.g. `compaction(auto) 41200→9800`, `quarantine assemble`. */
export function describeEvent(event: ReplayEvent): string {
  switch (event.type) {
    case 'compaction': {
      const tokens = event.tokensBefore !== null ? ` ${event.tokensBefore}→${event.tokensAfter ?? '?'}` : '';
      const state = event.error ? ' failed' : event.compacted ? '' : ' (nothing compacted)';
      return `compaction(${event.trigger})${tokens}${state}`;
    }
    case 'quarantine':
      return `quarantine ${event.operation}`;
    case 'subagentSpawn':
      return event.error
        ? `spawn failed (${event.contextMode})`
        : `spawn ${event.contextMode}${event.prepared ? '' : ' (not prepared)'}`;
    case 'subagentRollback':
      return 'spawn rollback';
    case 'subagentEnded':
      return `subagent ${event.reason}`;
    case 'hostRequirement':
      return `host unsupported (${event.missing.join(', ')})`;
    case 'warning':
      return 'warning';
  }
}

export type BadgeKind =
  'status' | 'quarantine' | 'fallback' | 'compaction' | 'spawn' | 'host' | 'error' | 'warning' | 'note';

export interface TurnBadge {
  kind: BadgeKind;
  /** short text on the badge */
  text: string;
  /** the details (tooltip and accessible name) */
  title: string;
  tone: 'bad' | 'warn' | 'info';
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/**
 * Whether a lane's quarantine starts at this turn: the turn has the quarantine event, or it is the first the fallback
 * served (an engine that failed before its first turn). A quarantined lane stays so to the end of the replay; the
 * chart marks and the timeline's "quarantine" filter count the starts, and later turns say which engine served.
 */
export function quarantineStarts(record: TurnRecord, previous: TurnRecord | undefined): boolean {
  return (
    record.events.some((e) => e.type === 'quarantine') || (record.engine.quarantined && !previous?.engine.quarantined)
  );
}

function quarantineBadge(record: TurnRecord, previous: TurnRecord | undefined): TurnBadge | null {
  const starts = quarantineStarts(record, previous);
  if (!starts && !record.engine.quarantined) return null;
  const served = `${record.engine.requestedId} is quarantined; ${record.engine.engineId} served this turn`;
  if (!starts) return { kind: 'fallback', text: `on ${record.engine.engineId}`, title: served, tone: 'warn' };
  const quarantines = record.events.filter((e) => e.type === 'quarantine');
  const reasons = quarantines.map((q) => `${q.engineId} quarantined in ${q.operation}: ${q.reason}`);
  return {
    kind: 'quarantine',
    text: 'quarantine',
    title: reasons.length > 0 ? reasons.join('\n') : served,
    tone: 'bad',
  };
}

function compactionBadge(record: TurnRecord): TurnBadge | null {
  const compactions = record.events.filter((e) => e.type === 'compaction');
  if (compactions.length === 0) return null;
  const lines = compactions.map((c) => {
    const outcome = c.compacted
      ? `${c.tokensBefore ?? '?'} → ${c.tokensAfter ?? '?'} tokens`
      : `not compacted${c.reason ? ` (${c.reason})` : ''}`;
    const cause = compactionCauseLine(c, record);
    return `${c.trigger} compaction by ${c.engineId}: ${outcome}${cause ? `\n  why: ${cause}` : ''}`;
  });
  return {
    kind: 'compaction',
    text: compactions.length > 1 ? `compaction ×${compactions.length}` : 'compaction',
    title: lines.join('\n'),
    tone: compactions.every((c) => !c.compacted) ? 'warn' : 'info',
  };
}

function spawnBadge(record: TurnRecord): TurnBadge | null {
  const spawns = record.events.filter((e) => e.type === 'subagentSpawn');
  if (spawns.length === 0) return null;
  return {
    kind: 'spawn',
    text: spawns.length > 1 ? `spawn ×${spawns.length}` : 'spawn',
    title: spawns
      .map(
        (s) =>
          `subagent ${s.childSessionKey ?? s.toolCallId} (${s.contextMode}${s.lightContext ? ', light context' : ''})${s.error ? `: ${s.error}` : ''}`,
      )
      .join('\n'),
    tone: spawns.some((s) => s.error) ? 'warn' : 'info',
  };
}

/** The badges of one lane's turn (`previous`: the lane's turn before it), in the order the timeline shows them. */
export function turnBadges(record: TurnRecord, findings: readonly Finding[], previous?: TurnRecord): TurnBadge[] {
  const badges: (TurnBadge | null)[] = [];
  if (record.status !== 'ok') {
    const text = STATUS_TEXT[record.status];
    badges.push({ kind: 'status', text, title: record.error ?? text, tone: 'bad' });
  }
  badges.push(quarantineBadge(record, previous), compactionBadge(record), spawnBadge(record));
  const hostFailures = record.events.filter((e) => e.type === 'hostRequirement');
  if (hostFailures.length > 0) {
    badges.push({ kind: 'host', text: 'host', title: hostFailures.map((h) => h.message).join('\n'), tone: 'bad' });
  }
  const problems = turnProblems(record, findings);
  // the status has its badge above: the error badge counts the error findings
  const errorFindings = record.status === 'ok' ? problems.errors : problems.errors.slice(1);
  if (errorFindings.length > 0)
    badges.push({
      kind: 'error',
      text: plural(errorFindings.length, 'error'),
      title: errorFindings.join('\n'),
      tone: 'bad',
    });
  if (problems.warnings.length > 0)
    badges.push({
      kind: 'warning',
      text: plural(problems.warnings.length, 'warning'),
      title: problems.warnings.join('\n'),
      tone: 'warn',
    });
  if (problems.notes.length > 0)
    badges.push({
      kind: 'note',
      text: plural(problems.notes.length, 'note'),
      title: problems.notes.join('\n'),
      tone: 'info',
    });
  return badges.filter((b): b is TurnBadge => b !== null);
}

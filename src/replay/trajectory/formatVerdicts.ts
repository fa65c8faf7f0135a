/** The per-turn verdicts of `replay --against-trajectory`, for a person (turns numbered from 1). */
import type { TrajectoryReport, TrajectoryTurn } from '../../contract/recording';

/** Turns whose replayed context differs from the recorded one. */
export function trajectoryMismatches(report: TrajectoryReport): TrajectoryTurn[] {
  return report.turns.filter((t) => t.verdict === 'differs');
}

function turnLine(t: TrajectoryTurn): string {
  const n = `turn ${t.turn + 1}`;
  const cut = t.truncated ? ' (trajectory truncated/redacted; compared as recorded)' : '';
  if (t.verdict === 'exact') return `${n}: exact, ${t.recordedCount} messages${cut}`;
  if (t.verdict === 'not-recorded') return `${n}: not recorded (no context.compiled for this turn)`;
  if (t.verdict === 'unverifiable') return `${n}: unverifiable (the recorded event was cut whole, or no replayed turn)`;
  const d = t.difference!;
  return (
    `${n}: DIFFERS at message ${d.index + 1}, ${d.field}: recorded ${d.recorded}, replayed ${d.replayed}` +
    ` (${t.recordedCount} recorded, ${t.replayedCount} replayed messages)${cut}`
  );
}

export function formatTrajectoryVerdicts(report: TrajectoryReport): string {
  const where = `${report.source.storage === 'jsonl' ? 'trajectory file' : 'agent database'} ${report.source.location}`;
  const lines = [
    `Recorded trajectory (${where}): ${report.contexts} context.compiled event(s)` +
      (report.unaligned > 0 ? `, ${report.unaligned} not belonging to a turn of this session` : ''),
    `Compared with lane ${report.against ?? '(none)'}: ${report.exact} exact, ${report.differs} differ, ` +
      `${report.turns.length - report.exact - report.differs} not compared, of ${report.turns.length} turns`,
    ...report.turns.map((t) => `  ${turnLine(t)}`),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `session-problem`: a transcript line the reader kept out or flagged (an unknown role, a malformed message, a
 * toolResult whose call is not in the transcript, …). It is a fact of the recorded session, not of a lane, so it is
 * reported once, on the first root lane, with the file and line: a replay of a damaged transcript says so instead
 * of looking clean.
 */
import type { Finding, LaneRecord } from '../../contract/recording';
import type { SessionProblem } from '../../transcripts';

/** At most this many findings; the rest are counted in the last one (every problem stays in session.problems). */
const MAX_LISTED = 20;

export function sessionProblemFindings(
  lanes: readonly LaneRecord[],
  path: string,
  problems: readonly SessionProblem[],
): Finding[] {
  const base = lanes.find((l) => !l.parentLane && l.source !== 'trajectory');
  if (!base || problems.length === 0) return [];
  const where = path || 'the session';
  const finding = (severity: Finding['severity'], message: string): Finding => ({
    code: 'session-problem',
    severity,
    lane: base.id,
    turn: null,
    message,
  });
  const out = problems
    .slice(0, MAX_LISTED)
    .map((p) => finding(p.severity === 'error' ? 'error' : 'warning', `${where}:${p.line}: ${p.code}: ${p.message}`));
  if (problems.length > MAX_LISTED) {
    out.push(
      finding(
        'warning',
        `${where}: ${problems.length - MAX_LISTED} more transcript problem(s); the recording's session.problems lists them all`,
      ),
    );
  }
  return out;
}

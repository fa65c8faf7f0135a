/**
 * A call that timed out may have blocked its engine host (a synchronous loop): the host answers no ping and is
 * killed after a grace period. The quarantine was recorded at the deadline, before that was known, so once the
 * turn is done its timeout quarantines ask the plugin host whether it still answers, and a killed host is added to
 * their reason (`timeout after 30000 ms; the engine host stopped answering and was killed (killed after timeout in
 * assemble)`), on the recorded quarantine event and on the finding.
 */
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';

const TIMEOUT_REASON = /^timeout after \d+ ms$/;

export async function noteKilledEngineHost(lane: Lane, draft: TurnDraft): Promise<void> {
  const liveness = lane.group.hostLiveness;
  const timedOut = draft.quarantines.filter((q) => TIMEOUT_REASON.test(q.reason));
  if (!liveness || timedOut.length === 0) return;
  if (await liveness.checkResponsive()) return;
  const killed = `; the engine host stopped answering and was killed (${liveness.stopReason() ?? 'killed'})`;
  for (const q of timedOut) {
    const event = draft.events.find(
      (e) => e.type === 'quarantine' && e.failedAt === q.failedAt && e.operation === q.operation,
    );
    if (event?.type === 'quarantine') event.reason += killed;
    q.reason += killed;
  }
}

/**
 * Engine calls that throw inside an agent turn on a release without quarantine for them: before 2026.5.28 there is
 * no quarantine at all (4.25 attempt.tool-run-context-*.js logs `context engine afterTurn failed: …` and goes on),
 * and 2026.8+ runs a logical turn without the proxy. OpenClaw 2026.9.6 runs the logical turn on an engine it
 * created for that turn without the quarantine proxy (registry-*.mjs `resolveLogicalTurnContextEngines`), so a
 * failure reaches the harness, which logs it and goes on (context-engine-lifecycle-*.mjs,
 * context-engine-maintenance-*.mjs, builtin-openclaw-*.mjs); a failed commitTurn stays queued in the outbox and is
 * retried before the next turn, which runs on legacy when the retry fails too (context-engine-turn-attempt-*.mjs).
 */
import type { CommitTurnParams } from '../../contract';
import type { Finding } from '../../contract/recording';
import { FINDING_SEVERITY } from '../findings/computeTurnFindings';
import type { RecordedEngine } from '../recording/recordEngineCalls';
import type { TurnDraft } from '../recording/turnDraft';
import type { EngineFailure, Lane } from './laneContext';

/** The degrade reason when the queued advancement could not be committed before the next turn (9.6 wording). */
export const PENDING_COMMIT_REASON = 'pending durable turn advancement could not be completed before the next turn';

/** Whether this lane's release line logs engine failures in a turn instead of quarantining the engine. */
export function logsTurnFailures(lane: Pick<Lane, 'state'>): boolean {
  return lane.state.profile.turnEngineFailures === 'log';
}

/** OpenClaw's `String(error)` of a failure (an Error prints as `Error: message`). */
export function errorText(outcome: { error: unknown; message: string }): string {
  return outcome.error instanceof Error ? String(outcome.error) : outcome.message;
}

/** Log `warning` as OpenClaw does and, on a logging release line, note the failure for the turn's finding. */
export function noteEngineFailure(
  lane: Lane,
  draft: TurnDraft,
  method: string,
  message: string,
  warning: string,
): void {
  draft.warn(warning);
  if (logsTurnFailures(lane)) lane.engineFailures.push({ method, message });
}

/** The queued-advancement warning of a commitTurn that failed. */
export function commitQueuedWarning(advancementKey: string, why: string): string {
  return `[context-engine] durable turn advancement remains queued: ${advancementKey}: ${why}`;
}

/**
 * Before a logical turn on the configured engine: commit the advancement an earlier turn left queued. Undefined when
 * nothing was pending or the commit went through; else the reason the turn degrades to legacy (it stays queued).
 */
export async function retryPendingCommit(
  lane: Lane,
  draft: TurnDraft,
  engine: RecordedEngine,
): Promise<string | undefined> {
  const pending: CommitTurnParams | undefined = lane.pendingCommit;
  if (!pending) return undefined;
  const outcome = await engine.call<{ status?: unknown }>(draft, 'commitTurn', pending, 'queued advancement retried');
  const status = outcome.ok ? outcome.value?.status : undefined;
  if (status === 'committed' || status === 'duplicate') {
    lane.pendingCommit = undefined;
    return undefined;
  }
  const why = outcome.ok ? `invalid commitTurn result status: ${String(status)}` : outcome.message;
  draft.warn(commitQueuedWarning(pending.advancementKey, why));
  return PENDING_COMMIT_REASON;
}

/** One finding per failing turn, naming each failed call (assemble has its own `assemble-failed`). */
export function engineFailureFindings(
  lane: Lane,
  turn: number,
  engineId: string,
  failures: readonly EngineFailure[],
): Finding[] {
  const named = failures.filter((f) => f.method !== 'assemble');
  if (named.length === 0) return [];
  const calls = named.map((f) => `${f.method}(): ${f.message}`).join('; ');
  return [
    {
      code: 'engine-call-failed',
      severity: FINDING_SEVERITY['engine-call-failed'],
      lane: lane.id,
      turn,
      message:
        `engine "${engineId}" threw in this turn (${calls}). OpenClaw ${lane.state.profile.version} logs it and goes on without ` +
        'quarantining the engine; the next turn calls it again.',
    },
  ];
}

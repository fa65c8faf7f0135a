import type { RecordedEngine } from '../../recording/recordEngineCalls';

/** The engine declares and implements atomic idempotent turn advancement (OpenClaw's host-compat.ts rule). */
export function supportsDurableTurnAdvancement(engine: Pick<RecordedEngine, 'info' | 'has'>): boolean {
  return (
    engine.info.transcriptSemantics?.turnAdvancementIdempotency === 'atomic-idempotent-v1' && engine.has('commitTurn')
  );
}

/**
 * Why a configured engine cannot take a logical turn on a host that requires durable commits (OpenClaw 2026.8+'s
 * context-engine-logical-turn.ts), or undefined when it can. The turn then runs on legacy.
 */
export function durableTurnIssue(engine: Pick<RecordedEngine, 'info' | 'has'>): string | undefined {
  if (engine.info.transcriptSemantics?.currentTurnFence !== 'before-current-turn-entry-v1') {
    return 'current-turn transcript fencing is not declared';
  }
  if (!supportsDurableTurnAdvancement(engine)) return 'atomic idempotent turn advancement is not declared';
  return undefined;
}

/** OpenClaw's warning for a degraded logical turn. */
export function degradedTurnWarning(configuredId: string, reason: string): string {
  return (
    `[context-engine] Context engine "${configuredId}" degraded to "legacy" for this logical turn: ${reason}. ` +
    `The "legacy" engine will handle only this turn; configuration is unchanged, and "${configuredId}" will be retried next turn.`
  );
}

/**
 * What OpenClaw put before a turn's prompt that the transcript does not keep, as its trajectory recorded it
 * (`context.compiled` `data.prompt`). Since 2026.6 it prepends the subagent steering event — "[OpenClaw runtime
 * event] Agent steering queue items arrived since your last turn. …", each finished child's result, then "Current
 * parent turn:" and the trimmed prompt (`prependAgentSteeringPrompt`, src/agents/agent-steering-queue.ts) — when a
 * child finished before the turn started, and store only the user's text. Whether it happened depends on the child's
 * timing, so only the recording can say: the replay takes it from there and never invents one.
 */
import type { TrajectoryEvent } from '../../transcripts';
import type { PreparedSession } from '../session/prepareSession';
import { promptTextOf } from '../session/sessionTurns';
import { alignCompiledContexts } from './compiledContexts';

/**
 * The recorded text before each turn's stored prompt, by the turn's user entry id: only where the submitted prompt
 * is longer and ends with the stored text (OpenClaw trims the prompt it wraps; a stored text with outer whitespace
 * is left alone).
 */
export function promptWrappersOf(events: readonly TrajectoryEvent[], session: PreparedSession): Map<string, string> {
  const wrappers = new Map<string, string>();
  const { byTurn } = alignCompiledContexts(events, session);
  for (const [index, compiled] of byTurn) {
    const turn = session.split.turns[index];
    if (!turn || compiled.prompt === null) continue;
    const stored = promptTextOf(turn.userEntry.message);
    if (!stored || stored !== stored.trim()) continue;
    if (compiled.prompt.length > stored.length && compiled.prompt.endsWith(stored)) {
      wrappers.set(turn.userEntry.id, compiled.prompt.slice(0, -stored.length));
    }
  }
  return wrappers;
}

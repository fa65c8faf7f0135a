/**
 * Subagent hooks during a replayed turn (behaviour §8): for every recorded `sessions_spawn` call, the preparation
 * (fork precondition, lightContext skip, `prepareSubagentSpawn`), the launch outcome the recording shows (a failed
 * spawn rolls the preparation back once, swallowing rollback errors), the child session replayed as a child lane,
 * and `onSubagentEnded` when the child's run finished (`cleanup: "keep"` → completed, `"delete"` → deleted).
 * Children that never finished are swept at the end of the replay.
 */
import type { SubagentEndReason, SubagentSpawnPreparation } from '../../contract';
import type { Lane } from './laneContext';
import { errorMessage } from '../../common/errorText';
import type { SubagentSpawnEvent } from '../../contract/recording';
import type { SessionTurn } from '../session/sessionTurns';
import { findRecordedSpawns } from '../session/subagentSpawns';
import type { TurnDraft } from '../recording/turnDraft';

export const FORK_REQUIRES_TRANSCRIPT_ERROR =
  'context="fork" requires requester session metadata with an existing transcript file.';
export const LIGHT_CONTEXT_SKIP_REASON = 'lightContext isolated spawn: prepareSubagentSpawn is intentionally skipped';

/** The key OpenClaw would have generated when the recording names none (a failed spawn before the key existed). */
function placeholderChildKey(toolCallId: string): string {
  return `agent:main:subagent:unknown-${toolCallId}`;
}

export async function notifySubagentEnded(
  lane: Lane,
  draft: TurnDraft,
  childSessionKey: string,
  reason: SubagentEndReason,
): Promise<void> {
  const engine = lane.slotEngine;
  if (!engine.has('onSubagentEnded')) {
    draft.addEvent({ type: 'subagentEnded', childSessionKey, reason, ok: true });
    return;
  }
  const outcome = await engine.call(draft, 'onSubagentEnded', { childSessionKey, reason }, `reason=${reason}`);
  draft.addEvent({
    type: 'subagentEnded',
    childSessionKey,
    reason,
    ok: outcome.ok,
    ...(outcome.ok ? {} : { error: outcome.message }),
  });
}

export async function handleRecordedSpawns(lane: Lane, turn: SessionTurn, draft: TurnDraft): Promise<void> {
  for (const spawn of findRecordedSpawns(turn.entries)) {
    const event = draft.addEvent({
      type: 'subagentSpawn',
      toolCallId: spawn.toolCallId,
      childSessionKey: spawn.childSessionKey,
      contextMode: spawn.contextMode,
      lightContext: spawn.lightContext,
      mode: spawn.mode,
      cleanup: spawn.cleanup,
      prepared: false,
    }) as SubagentSpawnEvent;

    // prepareSubagentSpawnContext: a fork needs the requester's transcript file.
    if (spawn.contextMode === 'fork' && !lane.transcript.existsOnDisk()) {
      event.error = FORK_REQUIRES_TRANSCRIPT_ERROR;
      continue;
    }

    let preparation: SubagentSpawnPreparation | undefined;
    if (spawn.lightContext && spawn.contextMode === 'isolated') {
      event.skippedReason = LIGHT_CONTEXT_SKIP_REASON;
    } else if (!lane.engine.has('prepareSubagentSpawn')) {
      event.skippedReason = 'the engine does not implement prepareSubagentSpawn';
    } else {
      const childSessionKey = spawn.childSessionKey ?? placeholderChildKey(spawn.toolCallId);
      const outcome = await lane.prepareSpawn(draft, {
        parentSessionKey: lane.sessionKey ?? '',
        childSessionKey,
        contextMode: spawn.contextMode,
        parentSessionId: lane.transcript.sessionId,
        ...(lane.transcript.existsOnDisk() ? { parentSessionFile: lane.transcript.sessionFile } : {}),
      });
      event.prepared = true;
      if (!outcome.ok) {
        // A throwing prepareSubagentSpawn fails the spawn (after quarantining a plugin engine).
        event.error = outcome.message;
        continue;
      }
      preparation = outcome.value ?? undefined;
    }

    if (spawn.failed) {
      event.error = spawn.error ?? 'the recorded spawn failed';
      const rollback = preparation?.rollback;
      if (typeof rollback === 'function') {
        try {
          await rollback.call(preparation);
          draft.addEvent({ type: 'subagentRollback', childSessionKey: spawn.childSessionKey, ok: true });
        } catch (error) {
          // Best effort, as in OpenClaw: rollback errors are swallowed.
          draft.addEvent({
            type: 'subagentRollback',
            childSessionKey: spawn.childSessionKey,
            ok: false,
            error: errorMessage(error),
          });
        }
      }
      continue;
    }

    const childSessionKey = spawn.childSessionKey;
    if (!childSessionKey) continue;
    const child = await lane.replayChild(spawn, turn.index);
    if (child.laneId) event.childLane = child.laneId;
    if (child.finished && spawn.mode === 'run') {
      await notifySubagentEnded(lane, draft, childSessionKey, spawn.cleanup === 'delete' ? 'deleted' : 'completed');
    } else {
      lane.pendingSubagents.push({ childSessionKey, mode: spawn.mode, cleanup: spawn.cleanup, spawnTurn: turn.index });
    }
  }
}

/** End of replay: every child that never finished is swept (behaviour §8.2). */
export async function sweepPendingSubagents(lane: Lane, draft: TurnDraft): Promise<void> {
  const pending = lane.pendingSubagents.splice(0);
  for (const child of pending) await notifySubagentEnded(lane, draft, child.childSessionKey, 'swept');
}

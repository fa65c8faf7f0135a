import type { ContextEngineInfo } from '../../../contract';
import {
  evaluateContextEngineHostSupport,
  formatContextEngineHostUnsupportedMessage,
  shouldAssertContextEngineHostSupport,
} from '../../../runtime';
import type { TurnDraft } from '../../recording/turnDraft';
import type { Lane } from '../laneContext';

/**
 * Host requirements for `agent-run` on the lane's host (behaviour §5, §13 step 2): a mismatch fails closed — the run
 * never starts. Returns the failure message (and records a `hostRequirement` event), or undefined. Releases before
 * 2026.5.22 do not know `hostRequirements` (profile `hostRequirementMismatch: 'ignored'`): nothing is checked.
 */
export function checkAgentRunHostSupport(lane: Lane, draft: TurnDraft, info: ContextEngineInfo): string | undefined {
  if (lane.state.profile.hostRequirementMismatch === 'ignored') return undefined;
  if (!shouldAssertContextEngineHostSupport(info)) return undefined;
  const args = { contextEngineInfo: info, operation: 'agent-run' as const, host: lane.group.host };
  const evaluation = evaluateContextEngineHostSupport(args);
  if (evaluation.ok) return undefined;
  const message = formatContextEngineHostUnsupportedMessage(args, evaluation);
  draft.addEvent({
    type: 'hostRequirement',
    engineId: info.id,
    operation: 'agent-run',
    hostId: lane.group.host.id,
    missing: evaluation.missing,
    message,
  });
  return message;
}

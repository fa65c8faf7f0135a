/**
 * Lane-level findings about a lane's settings (pure): problems that hold for every turn of the lane, reported
 * once with `turn: null` instead of once per turn.
 */
import { FINDING_SEVERITY } from './computeTurnFindings';
import type { Finding } from '../../contract/recording';

export interface LaneSettingsInput {
  lane: string;
  contextWindow: number;
  /** the effective reserve (after OpenClaw's floor and cap) */
  reserveTokens: number;
  keepRecentTokens: number;
  compactionEnabled: boolean;
  /** events the lane's plugin subscribed to with `api.on` */
  pluginHooks?: readonly string[];
}

/**
 * `keep-recent-exceeds-budget`: OpenClaw's compaction keeps at least `keepRecentTokens` of recent history, so when
 * that is not below the prompt budget (window − reserve) no compaction can make an over-budget prompt fit.
 */
export function laneSettingsFindings(input: LaneSettingsInput): Finding[] {
  const findings: Finding[] = [];
  const budget = input.contextWindow - input.reserveTokens;
  if (input.compactionEnabled && input.keepRecentTokens >= budget) {
    findings.push({
      code: 'keep-recent-exceeds-budget',
      severity: FINDING_SEVERITY['keep-recent-exceeds-budget'],
      lane: input.lane,
      turn: null,
      message:
        `keepRecentTokens ${input.keepRecentTokens} ≥ prompt budget ${budget} (context window ${input.contextWindow} − reserve ${input.reserveTokens}): ` +
        `a compaction keeps at least ${input.keepRecentTokens} recent tokens, so once the history outgrows ${budget} tokens it cannot make the prompt fit ` +
        `and those turns end in prompt_error. This is how OpenClaw behaves with these settings; lower agents.defaults.compaction.keepRecentTokens ` +
        `(below ${budget}) or use a larger window.`,
    });
  }
  // `plugin-hooks-not-run`: the replay calls engines, not plugin hooks (their payloads are not specified); say so
  // instead of letting a replay look complete when a hook would have changed something in OpenClaw.
  if (input.pluginHooks && input.pluginHooks.length > 0) {
    findings.push({
      code: 'plugin-hooks-not-run',
      severity: FINDING_SEVERITY['plugin-hooks-not-run'],
      lane: input.lane,
      turn: null,
      message:
        `The plugin subscribes to ${input.pluginHooks.join(', ')} with api.on; the replay does not run plugin hooks, so whatever they ` +
        `do in OpenClaw (a before_prompt_build hook can add system context, for example) is not part of this lane.`,
    });
  }
  return findings;
}

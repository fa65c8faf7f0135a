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
  /** hooks the lane's plugin subscribed to with `api.on` that the replay does not run, each with why */
  pluginHooks?: readonly { name: string; why: string }[];
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
  // `plugin-hooks-not-run`: the hooks the replay cannot simulate (or OpenClaw would block), each with why, so a
  // replay does not look complete when one of them would have changed something in OpenClaw.
  if (input.pluginHooks && input.pluginHooks.length > 0) {
    findings.push({
      code: 'plugin-hooks-not-run',
      severity: FINDING_SEVERITY['plugin-hooks-not-run'],
      lane: input.lane,
      turn: null,
      message:
        `Plugin hooks not run in this lane: ${input.pluginHooks.map((h) => `${h.name} (${h.why})`).join('; ')}. ` +
        `Whatever they do in OpenClaw is not part of this lane; the plugin's other hooks run as OpenClaw runs them.`,
    });
  }
  return findings;
}

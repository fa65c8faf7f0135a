/** Plugin hooks in a replay: which run (hookCatalog), what they do to the prompt (promptHooks), where they run. */
export { planLaneHooks, isHookEra2026_8, SIMULATED_HOOKS, type HookPlan, type HookNotRun } from './hookCatalog';
export { laneHookPlan, attachHookRecords, type LaneHookHost } from './laneHooks';
export { runRunStartHooks, runPromptBuildHooks, runLlmInputHooks, runAgentEndHooks } from './turnHooks';
export { persistToolResults } from './toolResultHooks';
export { withEngineCompactionHooks, withDelegatedCompactionHooks, withHarnessCompactionHooks } from './compactionHooks';
export { applyPromptHookEffect, mergePromptBuildResults, resolvePromptHookEffect } from './promptHooks';

/**
 * A lane whose engine did not run (its plugin was not approved, or could not be loaded) replayed on legacy: the
 * run is not what was asked for, so the command says which lane and why and exits with its own code.
 */
import type { Recording } from '../../replay';
import type { CliHost } from '../cliHost';
import { EXIT } from '../exitCodes';

/** Lanes (not subagent children) that could not run their engine, with the reason the replay recorded. */
export function lanesNotRun(recording: Recording): { id: string; error: string }[] {
  return recording.lanes
    .filter((lane) => lane.parentLane === undefined && lane.error !== undefined)
    .map((lane) => ({ id: lane.id, error: lane.error! }));
}

/** Prints one line per such lane and sets exit code 4; false when every lane ran its engine. */
export function reportLanesNotRun(recording: Recording, host: CliHost): boolean {
  const lanes = lanesNotRun(recording);
  for (const lane of lanes) host.err(`lane ${lane.id} did not run its engine (it ran on legacy): ${lane.error}\n`);
  if (lanes.length > 0) process.exitCode = EXIT.laneNotRun;
  return lanes.length > 0;
}

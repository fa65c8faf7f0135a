/** Lookups built once per Recording so per-row work stays constant: findings by lane and turn. Pure. */
import type { Finding, Recording } from '../recordingTypes';

export function turnKey(lane: string, turn: number): string {
  return `${lane}\u0000${turn}`;
}

/** Findings grouped by (lane, turn); findings not tied to a turn are under turn -1. */
export function indexFindings(recording: Recording): Map<string, Finding[]> {
  const index = new Map<string, Finding[]>();
  for (const finding of recording.findings) {
    const key = turnKey(finding.lane, finding.turn ?? -1);
    const list = index.get(key);
    if (list) list.push(finding);
    else index.set(key, [finding]);
  }
  return index;
}

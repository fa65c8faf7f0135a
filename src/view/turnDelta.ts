/**
 * One lane's change since its previous turn: messages added to, removed from and changed in what it assembled
 * (matched by identity, so a move is not a change), and where the assembled list stops repeating the previous
 * turn's from the start — the first position a provider's prompt cache cannot reuse (as lossless-claw's
 * `describeAssembledPrefixChange` does it).
 */
import { refSignature, type LaneTurnState } from './laneTurnState';

export interface LaneTurnDelta {
  /** the lane had a previous turn to compare with */
  hasPrevious: boolean;
  added: number;
  removed: number;
  changed: number;
  /** assembled messages identical to the previous turn's, position by position from the start */
  commonPrefix: number;
  /**
   * the first position where this turn's assembled list departs from the previous turn's (the cache breaks
   * there); null when it repeats all of the previous list and only appends
   */
  firstDivergence: number | null;
  systemPromptAdditionChanged: boolean;
}

function sentById(state: LaneTurnState): Map<string, string> {
  const map = new Map<string, string>();
  const assembled = state.record?.assembled ?? [];
  state.order.forEach((id, position) => map.set(id, refSignature(state.recording, assembled[position]!)));
  return map;
}

export function laneTurnDelta(previous: LaneTurnState, current: LaneTurnState): LaneTurnDelta {
  const before = sentById(previous);
  const now = sentById(current);
  let added = 0;
  let changed = 0;
  for (const [id, sig] of now) {
    const was = before.get(id);
    if (was === undefined) added++;
    else if (was !== sig) changed++;
  }
  let removed = 0;
  for (const id of before.keys()) if (!now.has(id)) removed++;

  const prevList = previous.record?.assembled ?? [];
  const list = current.record?.assembled ?? [];
  let commonPrefix = 0;
  while (
    commonPrefix < prevList.length &&
    commonPrefix < list.length &&
    refSignature(previous.recording, prevList[commonPrefix]!) === refSignature(current.recording, list[commonPrefix]!)
  ) {
    commonPrefix++;
  }
  return {
    hasPrevious: previous.record !== null,
    added,
    removed,
    changed,
    commonPrefix,
    firstDivergence: commonPrefix < prevList.length ? commonPrefix : null,
    systemPromptAdditionChanged:
      previous.record !== null &&
      current.record !== null &&
      (previous.record.systemPromptAddition ?? null) !== (current.record.systemPromptAddition ?? null),
  };
}

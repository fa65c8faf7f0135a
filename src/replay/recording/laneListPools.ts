/**
 * The replay's per-lane pools for turn lists (`src/view/sharedTurnLists.ts`): each recorded turn's `assembled`
 * becomes runs over its lane's pool as the turn is recorded, so the replay holds each lane's messages once and a
 * few ranges per turn instead of every turn's whole context.
 */
import type { TurnRecord } from '../../contract/recording';
import { newAssembledPool, shareAssembled, type AssembledPool } from '../../view/sharedTurnLists';

export class LaneListPools {
  private readonly pools = new Map<string, AssembledPool>();

  /** `record.assembled` as a list of the lane's pool. */
  share(lane: string, record: TurnRecord): void {
    let pool = this.pools.get(lane);
    if (!pool) this.pools.set(lane, (pool = newAssembledPool()));
    shareAssembled(record, pool);
  }

  /** Every turn not shared yet (lanes added whole, such as the recorded trajectory lane). */
  shareAll(turns: Record<string, readonly TurnRecord[]>): void {
    for (const [lane, records] of Object.entries(turns)) for (const record of records) this.share(lane, record);
  }
}

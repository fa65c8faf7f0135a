/**
 * The entry tree of a session transcript: which entry is the visible leaf, which entry the next append hangs
 * from, and the path from a leaf back to the root. Mirrors OpenClaw's `storage-base.ts` rules:
 * - `leaf` entries move the visible leaf to `targetId` (and the append cursor to `appendParentId ?? targetId`);
 * - entries with `appendMode: "side"` advance the append cursor but not the visible leaf;
 * - entry types the harness does not know advance the append cursor only;
 * - an entry appended under the append cursor while the visible leaf differs hangs, logically, off the
 *   visible leaf (its "logical parent"); `leaf` rows are control records and never appear on a path.
 */
import type { SessionEntry } from '../contract';
import { KNOWN_ENTRY_TYPES } from './validateSessionLine';

/**
 * Entry types that select themselves as the visible leaf when appended: every known type except `leaf`, which
 * selects its target. (`reset` is a model-visible boundary, behaviour §11.3 "Building context", so it lands on the path.)
 */
const LEAF_SELECTING_TYPES: ReadonlySet<string> = new Set([...KNOWN_ENTRY_TYPES].filter((type) => type !== 'leaf'));

export function isSideAppend(entry: SessionEntry): boolean {
  return entry.appendMode === 'side';
}

/** The visible-leaf change an entry causes: a new leaf id, `null` (empty branch), or `undefined` (no change). */
export function leafIdUpdateAfterEntry(entry: SessionEntry): string | null | undefined {
  if (entry.type === 'leaf') return entry.targetId;
  if (isSideAppend(entry)) return undefined;
  return LEAF_SELECTING_TYPES.has(entry.type) ? entry.id : undefined;
}

/** The raw parent for the next append after this entry. */
export function appendParentIdAfterEntry(entry: SessionEntry): string | null {
  if (entry.type === 'leaf')
    return entry.appendParentId === undefined ? entry.targetId : (entry.appendParentId ?? null);
  return entry.id;
}

/**
 * Incrementally maintained index of a session tree. Adding an entry is O(1); a path is O(path length).
 * Entries must be added in file order.
 */
export class SessionTreeIndex {
  readonly byId = new Map<string, SessionEntry>();
  /** entries whose parent on a path is not their raw `parentId` (see file comment) */
  readonly logicalParents = new Map<string, string | null>();
  leafId: string | null = null;
  appendParentId: string | null = null;
  private count = 0;

  constructor(entries: readonly SessionEntry[] = []) {
    for (const entry of entries) this.add(entry);
  }

  get size(): number {
    return this.count;
  }

  add(entry: SessionEntry): void {
    const leafUpdate = leafIdUpdateAfterEntry(entry);
    if (
      leafUpdate === entry.id &&
      !isSideAppend(entry) &&
      entry.parentId === this.appendParentId &&
      this.leafId !== this.appendParentId
    ) {
      this.logicalParents.set(entry.id, this.leafId);
    }
    this.byId.set(entry.id, entry);
    this.count += 1;
    if (leafUpdate !== undefined) this.leafId = leafUpdate;
    this.appendParentId = appendParentIdAfterEntry(entry);
  }

  /** The parent an entry has on a path (leaf rows continue at their target). */
  pathParentOf(entry: SessionEntry): string | null {
    if (entry.type === 'leaf') return entry.targetId;
    if (this.logicalParents.has(entry.id)) return this.logicalParents.get(entry.id) ?? null;
    return entry.parentId;
  }

  /**
   * Entries from the root to `leafId` (inclusive), `leaf` control rows left out. Never throws: a missing
   * entry or a parent cycle ends the walk (the loader reports those as problems).
   */
  pathTo(leafId: string | null): SessionEntry[] {
    if (leafId === null) return [];
    const reversed: SessionEntry[] = [];
    const seen = new Set<string>();
    let current = this.byId.get(leafId);
    while (current && !seen.has(current.id)) {
      seen.add(current.id);
      if (current.type !== 'leaf') reversed.push(current);
      const parentId = this.pathParentOf(current);
      current = parentId ? this.byId.get(parentId) : undefined;
    }
    return reversed.reverse();
  }
}

const indexCache = new WeakMap<readonly SessionEntry[], SessionTreeIndex>();

/**
 * A tree index for an entry array, cached per array so repeated path queries on the same session cost
 * O(path) each. When entries were appended to the array since the last call, only the new ones are indexed.
 */
export function indexSessionEntries(entries: readonly SessionEntry[]): SessionTreeIndex {
  let index = indexCache.get(entries);
  if (!index || index.size > entries.length) {
    index = new SessionTreeIndex();
    indexCache.set(entries, index);
  }
  for (let i = index.size; i < entries.length; i++) index.add(entries[i]!);
  return index;
}

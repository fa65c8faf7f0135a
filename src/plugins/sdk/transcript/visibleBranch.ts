/**
 * The visible branch of a transcript as OpenClaw 2026.9.6 selects it (`src/config/sessions/transcript-tree.ts` and
 * `transcript-visible-events.ts`; ContextScope's own implementation of those rules, checked against OpenClaw's
 * functions on the same events):
 *
 * - every event but the `session` header that has an own `parentId` (null or a non-blank id) and a non-blank `id`
 *   is a tree node; an event of a known entry type without a `parentId` key hangs off the current leaf;
 * - known entry types (message, thinking_level_change, model_change, compaction, reset, branch_summary, custom,
 *   custom_message, label, session_info) select themselves as the leaf, unless `appendMode: "side"`; `leaf`
 *   control rows select their `targetId` (and the append cursor `appendParentId ?? targetId`); other types only
 *   move the append cursor;
 * - a leaf control naming an unknown entry is ignored; after a `reset`, a leaf control pointing outside the reset's
 *   descendants is ignored too;
 * - a known entry is re-hung on the current leaf when its parent is not a descendant of the latest reset, when its
 *   parent does not exist, or when it hangs off the append cursor while the leaf is elsewhere; a parent that is a
 *   leaf control row stands for that row's target;
 * - the visible branch is the path from the leaf to the root without leaf rows (empty on a parent cycle); a
 *   transcript whose leaf never moved and that has no leaf controls is visible as a whole, flat.
 */
import { isRecord } from '../../../common/guards';
import { OPENCLAW_ENTRY_TYPES } from '../../../contract/transcript';

const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set(OPENCLAW_ENTRY_TYPES);

interface TreeNode {
  id: string;
  parentId: string | null;
  /** the leaf this node selects: its own id, a leaf row's target, or undefined (no change) */
  leafId: string | null | undefined;
  appendParentId: string | null;
  side: boolean;
  event: Record<string, unknown>;
  index: number;
}

type ParsedNode = Omit<TreeNode, 'event' | 'index'>;

/** One event of the visible branch: the event, its parent after normalization, and its 1-based read order. */
export interface VisibleEvent {
  event: Record<string, unknown>;
  parentId: string | null;
  /** the event's index in the transcript plus one (OpenClaw's `seq` of a visible entry) */
  seq: number;
  /** the event's index in the transcript (the header is 0) */
  index: number;
}

function nonBlank(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/** null, a non-blank id, or undefined for anything else. */
function idOrNull(value: unknown): string | null | undefined {
  return value === null ? null : nonBlank(value);
}

function isKnownEntry(event: unknown): event is Record<string, unknown> {
  return isRecord(event) && typeof event.type === 'string' && KNOWN_ENTRY_TYPES.has(event.type);
}

function parseLeafControl(event: Record<string, unknown>, id: string): ParsedNode | undefined {
  const targetId = idOrNull(event.targetId);
  const appendParentId = event.appendParentId === undefined ? targetId : idOrNull(event.appendParentId);
  if (targetId === undefined || appendParentId === undefined) return undefined;
  if (event.appendMode !== undefined && event.appendMode !== 'side') return undefined;
  return { id, parentId: targetId, leafId: targetId, appendParentId, side: event.appendMode === 'side' };
}

/** A node for an event with its own `parentId`, or undefined when the event is not one. */
function parseExplicitNode(event: unknown): ParsedNode | undefined {
  if (!isRecord(event) || event.type === 'session' || !Object.hasOwn(event, 'parentId')) return undefined;
  const id = nonBlank(event.id);
  const parentId = idOrNull(event.parentId);
  if (!id || parentId === undefined) return undefined;
  if (event.type === 'leaf') return parseLeafControl(event, id);
  const side = event.appendMode === 'side';
  return { id, parentId, leafId: isKnownEntry(event) && !side ? id : undefined, appendParentId: id, side };
}

function isLeafControl(event: unknown): boolean {
  return isRecord(event) && event.type === 'leaf' && parseExplicitNode(event) !== undefined;
}

/** Scans the events in order, building the normalized tree and the current leaf. */
class TreeScan {
  readonly byId = new Map<string, TreeNode>();
  leafId: string | null = null;
  appendParentId: string | null = null;
  hasLeafControl = false;
  private latestResetId: string | undefined;
  private readonly resetDescendants = new Set<string>();
  private readonly invalidLeafControls = new Set<string>();

  constructor(events: readonly unknown[]) {
    events.forEach((event, index) => this.add(event, index));
  }

  private knownTarget(id: string | null): boolean {
    return id === null || (this.byId.has(id) && !this.invalidLeafControls.has(id));
  }

  private explicitNode(event: unknown): ParsedNode | undefined {
    const node = parseExplicitNode(event);
    if (!node || !isLeafControl(event) || node.leafId === undefined) return node;
    const leafId = this.leafId;
    if (
      this.latestResetId !== undefined &&
      leafId !== null &&
      (node.leafId === null || !this.resetDescendants.has(node.leafId))
    )
      return { ...node, parentId: leafId, leafId, appendParentId: leafId };
    return node;
  }

  /** The parent a known entry hangs from once normalized (see the file comment). */
  private normalizedParent(node: ParsedNode, explicit: boolean): string | null {
    const { leafId } = this;
    const staleParent = explicit && node.parentId !== null && !this.byId.has(node.parentId) && leafId !== null;
    let parentId = node.parentId;
    if (!node.side) {
      const outsideReset =
        this.latestResetId !== undefined && (node.parentId === null || !this.resetDescendants.has(node.parentId));
      const offCursor = explicit && node.parentId === this.appendParentId && leafId !== this.appendParentId;
      if (outsideReset || staleParent || offCursor) parentId = leafId;
    }
    return this.throughLeafRows(parentId);
  }

  private throughLeafRows(parentId: string | null): string | null {
    const seen = new Set<string>();
    let current = parentId;
    while (current !== null) {
      if (seen.has(current)) return current;
      const parent = this.byId.get(current);
      if (!parent || !isLeafControl(parent.event)) return current;
      seen.add(current);
      current = parent.parentId;
    }
    return null;
  }

  private add(event: unknown, index: number): void {
    const explicit = this.explicitNode(event);
    if (explicit && explicit.leafId !== undefined && isLeafControl(event)) {
      if (!this.knownTarget(explicit.leafId) || !this.knownTarget(explicit.appendParentId)) {
        this.addInvalidLeafControl(explicit, event as Record<string, unknown>, index);
        return;
      }
    }
    let parsed = explicit ?? this.parentlessNode(event);
    if (!parsed) return;
    if (isKnownEntry(event)) parsed = { ...parsed, parentId: this.normalizedParent(parsed, explicit !== undefined) };
    const node: TreeNode = { ...parsed, event: event as Record<string, unknown>, index };
    this.byId.set(node.id, node);
    if (node.event.type === 'reset') {
      this.latestResetId = node.id;
      this.resetDescendants.clear();
      this.resetDescendants.add(node.id);
    } else if (this.latestResetId !== undefined && node.parentId !== null && this.resetDescendants.has(node.parentId)) {
      this.resetDescendants.add(node.id);
    }
    this.appendParentId = node.appendParentId;
    if (node.leafId !== undefined) this.leafId = node.leafId;
    if (isLeafControl(event)) this.hasLeafControl = true;
  }

  private addInvalidLeafControl(node: ParsedNode, event: Record<string, unknown>, index: number): void {
    this.invalidLeafControls.add(node.id);
    const rawParent = idOrNull(event.parentId) ?? null;
    this.byId.set(node.id, {
      ...node,
      parentId: rawParent,
      leafId: undefined,
      appendParentId: this.appendParentId,
      event,
      index,
    });
  }

  private parentlessNode(event: unknown): ParsedNode | undefined {
    if (!isKnownEntry(event) || Object.hasOwn(event, 'parentId')) return undefined;
    const id = nonBlank(event.id);
    if (!id) return undefined;
    const side = event.appendMode === 'side';
    return { id, parentId: this.leafId, leafId: side ? undefined : id, appendParentId: id, side };
  }

  /** Root-first path to `leafId` without leaf rows; empty when the walk meets a cycle. */
  pathTo(leafId: string | null): TreeNode[] {
    const path: TreeNode[] = [];
    const seen = new Set<string>();
    let current = leafId;
    while (current) {
      if (seen.has(current)) return [];
      seen.add(current);
      const node = this.byId.get(current);
      if (!node) break;
      if (!isLeafControl(node.event)) path.push(node);
      current = node.parentId;
    }
    return path.reverse();
  }
}

/** The events of the visible branch, root first, with their original positions. */
export function selectVisibleEvents(events: readonly unknown[]): VisibleEvent[] {
  const tree = new TreeScan(events);
  const path = tree.pathTo(tree.leafId);
  if (path.length > 0)
    return path.map((node) => ({ event: node.event, parentId: node.parentId, seq: node.index + 1, index: node.index }));
  if (tree.hasLeafControl) return [];
  return events.map((event, index) => ({
    event: event as Record<string, unknown>,
    parentId: null,
    seq: index + 1,
    index,
  }));
}

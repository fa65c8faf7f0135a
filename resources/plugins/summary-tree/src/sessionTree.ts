// One session's summary tree: the raw messages not yet summarized (the fresh tail) and the summary nodes.
//
// Leaves (level 0) summarize consecutive chunks of raw messages; a parent (level n+1) condenses consecutive
// level-n nodes. Nodes without a parent are the "active roots": together with the raw tail they are exactly
// what assemble() sends. Every message ever ingested is remembered by content hash so re-ingesting it (bootstrap
// after a restart, a forked child replaying its parent) is a no-op.

import { messageHash } from './contentHash.ts';
import { estimateMessageTokens } from './estimateTokens.ts';
import type { ChunkFacts } from './extractFacts.ts';
import { isTranscriptCursor } from './readTranscriptMessages.ts';
import type { TranscriptCursor } from './readTranscriptMessages.ts';
import type { AgentMessage } from './types.ts';

/** Version 2 added the journal sequence and the transcript cursor; version 1 files still load. */
export const STATE_VERSION = 2;

export interface StoredMessage {
  /** 1-based position in the session as this engine saw it; summary markers cite these numbers. */
  seq: number;
  hash: string;
  tokens: number;
  /** This engine's own copy: what is hashed, persisted and estimated. */
  message: AgentMessage;
  /**
   * The object the host handed over (append, or a later delivery of an identical message), returned by
   * assemble() while it still matches the copy — so the host gets its own objects back, as from a pass-through
   * engine, and an engine host can send them as references. Never persisted: set with `attachReceived()`, which
   * makes it non-enumerable (JSON.stringify and structuredClone skip it).
   */
  received?: AgentMessage;
}

/** Remembers `received` as the host's object for `stored` (non-enumerable: never persisted or cloned). */
export function attachReceived(stored: StoredMessage, received: AgentMessage): void {
  Object.defineProperty(stored, 'received', { value: received, writable: true, configurable: true, enumerable: false });
}

function contentShape(content: AgentMessage['content']): string {
  if (typeof content === 'string') return `s${content.length}`;
  if (!Array.isArray(content)) return typeof content;
  let shape = `a${content.length}`;
  for (const block of content) {
    const b = block as unknown as Record<string, unknown> | null;
    const text = b?.type === 'text' ? b.text : b?.type === 'thinking' ? b.thinking : undefined;
    shape += `,${String(b?.type)}${typeof text === 'string' ? text.length : ''}`;
  }
  return shape;
}

function sameUsage(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const xCost = x.cost as Record<string, unknown> | undefined;
  const yCost = y.cost as Record<string, unknown> | undefined;
  return (
    x.input === y.input &&
    x.output === y.output &&
    x.cacheRead === y.cacheRead &&
    x.cacheWrite === y.cacheWrite &&
    x.totalTokens === y.totalTokens &&
    typeof xCost === typeof yCost &&
    xCost?.total === yCost?.total
  );
}

/**
 * The message assemble() sends for `stored`: the host's own object when there is one and it still matches the
 * copy, else the copy. Hosts mutate their objects after handing them over (stopReason, usage, errorMessage,
 * streamed content), so those are compared — cheaply, not deeply; the copy wins on any difference.
 */
export function assembledMessage(stored: StoredMessage): AgentMessage {
  const received = stored.received;
  if (received === undefined) return stored.message;
  const copy = stored.message;
  if (
    received.role === copy.role &&
    received.timestamp === copy.timestamp &&
    received.stopReason === copy.stopReason &&
    received.errorMessage === copy.errorMessage &&
    Object.keys(received).length === Object.keys(copy).length &&
    sameUsage(received.usage, copy.usage) &&
    contentShape(received.content) === contentShape(copy.content)
  ) {
    return received;
  }
  return copy;
}

export interface SummaryNode {
  /** `L<level>#<ordinal>`, unique within the session. */
  id: string;
  level: number;
  /** 1-based creation order within the level. */
  ordinal: number;
  fromSeq: number;
  toSeq: number;
  text: string;
  facts: ChunkFacts;
  method: 'llm' | 'deterministic';
  childIds: string[];
  parentId?: string;
  /** Timestamp of the newest covered message, used as the summary message's timestamp (never "now"). */
  lastTimestamp: number;
  /** Tokens of the rendered summary message. */
  tokens: number;
}

export interface SessionSnapshot {
  version: number;
  sessionId: string;
  sessionKey?: string;
  forkedFrom?: string;
  nextSeq: number;
  hashes: string[];
  raw: StoredMessage[];
  nodes: SummaryNode[];
  levelCounters: number[];
  /** Number of the last journal operation this snapshot includes (0: none). Absent in version 1. */
  journalSeq?: number;
  /** How far the session's transcript was read by bootstrap. Absent in version 1. */
  transcript?: TranscriptCursor;
}

/**
 * One mutation of a tree, as appended to the session's journal (see sessionStore.ts). Replaying a snapshot's
 * operations in `n` order rebuilds the tree exactly; every field is plain JSON.
 */
export type JournalOp =
  | { n: number; op: 'append'; stored: StoredMessage }
  | {
      n: number;
      op: 'commit';
      /** raw messages summarized away from the front of the tail */
      dropRaw: number;
      /** existing nodes that got a parent: [childId, parentId] */
      parents: [string, string][];
      /** nodes created by the compaction, in creation order, with their final parentId */
      created: SummaryNode[];
      levelCounters: number[];
    }
  | { n: number; op: 'meta'; sessionKey?: string; forkedFrom?: string }
  | { n: number; op: 'transcript'; cursor: TranscriptCursor };

export function summaryMarker(node: Pick<SummaryNode, 'level' | 'ordinal' | 'fromSeq' | 'toSeq'>): string {
  return `[summary-tree L${node.level} #${node.ordinal} covers msgs ${node.fromSeq}-${node.toSeq}]`;
}

/** Summaries reach the model as user messages whose text starts with the marker line. */
type RenderedFields = Pick<SummaryNode, 'level' | 'ordinal' | 'fromSeq' | 'toSeq' | 'text' | 'lastTimestamp'>;

/** The message last rendered for a node, with the fields it was rendered from. */
const renderedSummaries = new WeakMap<object, { message: AgentMessage; fields: RenderedFields }>();

/**
 * The summary message for `node`. The same node renders to the same object while the fields it shows are
 * unchanged, as an in-process host would see a kept summary: across a process boundary the host then gets it
 * as a reference instead of a new copy every turn.
 */
export function renderSummaryMessage(node: RenderedFields): AgentMessage {
  const cached = renderedSummaries.get(node);
  if (
    cached &&
    cached.fields.text === node.text &&
    cached.fields.level === node.level &&
    cached.fields.ordinal === node.ordinal &&
    cached.fields.fromSeq === node.fromSeq &&
    cached.fields.toSeq === node.toSeq &&
    cached.fields.lastTimestamp === node.lastTimestamp
  ) {
    return cached.message;
  }
  const message: AgentMessage = {
    role: 'user',
    content: [{ type: 'text', text: `${summaryMarker(node)}\n${node.text}` }],
    timestamp: node.lastTimestamp,
  };
  const { level, ordinal, fromSeq, toSeq, text, lastTimestamp } = node;
  renderedSummaries.set(node, { message, fields: { level, ordinal, fromSeq, toSeq, text, lastTimestamp } });
  return message;
}

export function timestampMs(message: AgentMessage): number {
  const ts = message.timestamp;
  if (typeof ts === 'number' && Number.isFinite(ts)) return ts;
  if (typeof ts === 'string') {
    const parsed = Date.parse(ts);
    return Number.isFinite(parsed) ? parsed : 0;
  }
  return 0;
}

export class SessionTree {
  sessionId: string;
  private key: string | undefined;
  forkedFrom: string | undefined;
  /** Created for a subagent before the host told us its sessionId; adopted on the first call that names it. */
  placeholder = false;
  /**
   * Set when the next save must write a whole snapshot instead of appending operations: a tree never saved,
   * a forked copy, a tree that changed its id, or one whose journal could not be replayed cleanly.
   */
  needsSnapshot = true;
  /** Mutations not yet written to the journal, oldest first. */
  pendingOps: JournalOp[] = [];
  /** Number of the last operation recorded (written or pending). */
  journalSeq = 0;
  /** How far bootstrap read the session's transcript. */
  transcript: TranscriptCursor | undefined;

  raw: StoredMessage[] = [];
  levelCounters: number[] = [];
  private nextSeq = 1;
  private readonly hashes = new Set<string>();
  // Nodes are only ever added (addNode) or given a parent (commit, replay), and these follow both: a turn costs
  // what the active part of the tree holds, not every summary the session ever made.
  private readonly allNodes: SummaryNode[] = [];
  private readonly nodesById = new Map<string, SummaryNode>();
  /** Positions in allNodes of the nodes without a parent, ascending (creation order). */
  private active: number[] = [];
  /** The active nodes sorted by fromSeq; rebuilt on the next activeRoots() after a change. */
  private sortedRoots: SummaryNode[] | undefined;
  private leaves = 0;
  private levels = 0;

  constructor(sessionId: string, sessionKey?: string) {
    this.sessionId = sessionId;
    this.key = sessionKey;
  }

  get dirty(): boolean {
    return this.needsSnapshot || this.pendingOps.length > 0;
  }

  get sessionKey(): string | undefined {
    return this.key;
  }

  set sessionKey(value: string | undefined) {
    if (value === this.key) return;
    this.key = value;
    this.record({ op: 'meta', sessionKey: value, forkedFrom: this.forkedFrom });
  }

  get messageCount(): number {
    return this.nextSeq - 1;
  }

  /** Every summary node, in creation order. */
  get nodes(): readonly SummaryNode[] {
    return this.allNodes;
  }

  hasMessage(message: AgentMessage): boolean {
    return this.hashes.has(messageHash(message));
  }

  /**
   * Adds a message unless an identical one was ingested before. Returns whether it was added. `fromHost`: the
   * message is the host's object (kept as `received`), not one this engine parsed itself (bootstrap).
   */
  append(message: AgentMessage, fromHost = true): boolean {
    const hash = messageHash(message);
    if (this.hashes.has(hash)) {
      // Already held (e.g. imported from the transcript by bootstrap): remember the host's identical object.
      if (!fromHost) return false;
      for (let i = this.raw.length - 1; i >= 0; i--) {
        const stored = this.raw[i];
        if (stored.hash === hash) {
          if (stored.received === undefined) attachReceived(stored, message);
          break;
        }
      }
      return false;
    }
    // Copy: the host keeps mutating its own message objects (usage, stopReason) after handing them over.
    const copy = structuredClone(message);
    const stored: StoredMessage = { seq: this.nextSeq, hash, tokens: estimateMessageTokens(copy), message: copy };
    if (fromHost) attachReceived(stored, message);
    this.applyAppend(stored);
    this.record({ op: 'append', stored });
    return true;
  }

  setTranscriptCursor(cursor: TranscriptCursor): void {
    this.transcript = cursor;
    this.record({ op: 'transcript', cursor });
  }

  /** The nodes without a parent, oldest first: the summaries assemble() sends. Callers must not modify it. */
  activeRoots(): readonly SummaryNode[] {
    // A stable sort of the creation-ordered list: the same order as sorting all nodes filtered by parentId.
    this.sortedRoots ??= this.activeNodes().sort((a, b) => a.fromSeq - b.fromSeq);
    return this.sortedRoots;
  }

  /** The nodes without a parent in creation order (what compactTree() starts from). */
  activeNodes(): SummaryNode[] {
    return this.active.map((at) => this.allNodes[at]);
  }

  rawTokens(): number {
    return this.raw.reduce((sum, m) => sum + m.tokens, 0);
  }

  /** Tokens of what assemble() would send with no budget limit. */
  totalTokens(): number {
    return this.activeRoots().reduce((sum, node) => sum + node.tokens, 0) + this.rawTokens();
  }

  leafCount(): number {
    return this.leaves;
  }

  /** Levels in the tree: 0 with no summaries, 1 with leaves only, 2 once leaves were condensed, … */
  depth(): number {
    return this.levels;
  }

  /**
   * Apply a compaction result (see compactTree.ts), computed from this tree's current state: the raw tail
   * becomes its suffix `plan.raw`, the active nodes are replaced by their copies in `plan.activeBefore` (some
   * with a parent now), and the new nodes are added. Replaced, not modified: pending journal operations may
   * still hold the old objects.
   */
  commit(plan: {
    raw: StoredMessage[];
    activeBefore: readonly SummaryNode[];
    newNodes: readonly SummaryNode[];
    levelCounters: number[];
  }): void {
    const dropRaw = this.raw.length - plan.raw.length;
    const before = this.active;
    if (
      dropRaw < 0 ||
      (plan.raw.length > 0 && plan.raw[0] !== this.raw[dropRaw]) ||
      plan.activeBefore.length !== before.length ||
      plan.activeBefore.some((copy, i) => copy.id !== this.allNodes[before[i]].id)
    ) {
      throw new Error('summary-tree: the compaction plan was not computed from the current tree');
    }
    const parents: [string, string][] = [];
    plan.activeBefore.forEach((copy, i) => {
      const old = this.allNodes[before[i]];
      this.allNodes[before[i]] = copy;
      if (this.nodesById.get(copy.id) === old) this.nodesById.set(copy.id, copy);
      if (copy.parentId !== undefined) parents.push([copy.id, copy.parentId]);
    });
    this.raw = plan.raw;
    this.active = before.filter((at) => this.allNodes[at].parentId === undefined);
    for (const node of plan.newNodes) this.addNode(node);
    this.sortedRoots = undefined;
    this.levelCounters = plan.levelCounters;
    this.record({
      op: 'commit',
      dropRaw,
      parents,
      created: [...plan.newNodes],
      levelCounters: [...plan.levelCounters],
    });
  }

  /** Deep copy under another session id (a forked subagent starts from its parent's summaries). */
  cloneAs(sessionId: string, sessionKey?: string): SessionTree {
    const snapshot = structuredClone(this.toSnapshot());
    const copy = SessionTree.fromSnapshot({
      ...snapshot,
      sessionId,
      sessionKey,
      forkedFrom: this.sessionId,
      journalSeq: 0,
      transcript: undefined,
    });
    copy.needsSnapshot = true;
    return copy;
  }

  toSnapshot(): SessionSnapshot {
    return {
      version: STATE_VERSION,
      sessionId: this.sessionId,
      sessionKey: this.key,
      forkedFrom: this.forkedFrom,
      nextSeq: this.nextSeq,
      hashes: [...this.hashes],
      raw: this.raw,
      nodes: this.allNodes,
      levelCounters: this.levelCounters,
      journalSeq: this.journalSeq,
      ...(this.transcript ? { transcript: this.transcript } : {}),
    };
  }

  /** A tree from a snapshot; it needs no new snapshot (the caller decides otherwise). */
  static fromSnapshot(snapshot: SessionSnapshot): SessionTree {
    const tree = new SessionTree(snapshot.sessionId, snapshot.sessionKey);
    tree.forkedFrom = snapshot.forkedFrom;
    tree.nextSeq = snapshot.nextSeq;
    for (const hash of snapshot.hashes) tree.hashes.add(hash);
    tree.raw = snapshot.raw;
    for (const node of snapshot.nodes) tree.addNode(node);
    tree.levelCounters = snapshot.levelCounters;
    tree.journalSeq = snapshot.journalSeq ?? 0;
    tree.transcript = snapshot.transcript;
    tree.needsSnapshot = false;
    return tree;
  }

  /**
   * Apply one journal operation read back from disk. Operations at or below `journalSeq` are already in the
   * snapshot and are skipped; returns false when `op` is not the next one (a gap: the caller stops replaying).
   */
  replay(op: JournalOp): boolean {
    if (op.n <= this.journalSeq) return true;
    if (op.n !== this.journalSeq + 1) return false;
    switch (op.op) {
      case 'append':
        this.applyAppend(op.stored);
        break;
      case 'commit': {
        if (op.dropRaw > this.raw.length || !op.parents.every(([childId]) => this.nodesById.has(childId))) return false;
        for (const [childId, parentId] of op.parents) (this.nodesById.get(childId) as SummaryNode).parentId = parentId;
        this.active = this.active.filter((at) => this.allNodes[at].parentId === undefined);
        this.sortedRoots = undefined;
        this.raw = this.raw.slice(op.dropRaw);
        for (const node of op.created) this.addNode(node);
        this.levelCounters = op.levelCounters;
        break;
      }
      case 'meta':
        this.key = op.sessionKey;
        this.forkedFrom = op.forkedFrom;
        break;
      case 'transcript':
        if (!isTranscriptCursor(op.cursor)) return false;
        this.transcript = op.cursor;
        break;
      default:
        return false;
    }
    this.journalSeq = op.n;
    return true;
  }

  private addNode(node: SummaryNode): void {
    this.allNodes.push(node);
    this.nodesById.set(node.id, node);
    if (node.parentId === undefined) {
      this.active.push(this.allNodes.length - 1);
      this.sortedRoots = undefined;
    }
    if (node.level === 0) this.leaves++;
    this.levels = Math.max(this.levels, node.level + 1);
  }

  private applyAppend(stored: StoredMessage): void {
    this.hashes.add(stored.hash);
    this.raw.push(stored);
    this.nextSeq = stored.seq + 1;
  }

  private record(op: DistributiveOmit<JournalOp, 'n'>): void {
    this.journalSeq += 1;
    this.pendingOps.push({ ...op, n: this.journalSeq } as JournalOp);
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** Loose structural check of a persisted snapshot (version 1 or 2); anything else is treated as absent. */
export function isSessionSnapshot(value: unknown): value is SessionSnapshot {
  if (!value || typeof value !== 'object') return false;
  const s = value as Partial<SessionSnapshot>;
  return (
    (s.version === 1 || s.version === STATE_VERSION) &&
    typeof s.sessionId === 'string' &&
    typeof s.nextSeq === 'number' &&
    Array.isArray(s.hashes) &&
    Array.isArray(s.raw) &&
    Array.isArray(s.nodes) &&
    Array.isArray(s.levelCounters) &&
    (s.journalSeq === undefined || typeof s.journalSeq === 'number') &&
    (s.transcript === undefined || isTranscriptCursor(s.transcript))
  );
}

// One session's summary tree: the raw messages not yet summarized (the fresh tail) and the summary nodes.
//
// Leaves (level 0) summarize consecutive chunks of raw messages; a parent (level n+1) condenses consecutive
// level-n nodes. Nodes without a parent are the "active roots": together with the raw tail they are exactly
// what assemble() sends. Every message ever ingested is remembered by content hash so re-ingesting it (bootstrap
// after a restart, a forked child replaying its parent) is a no-op.

import { messageHash } from "./contentHash.ts";
import { estimateMessageTokens } from "./estimateTokens.ts";
import type { ChunkFacts } from "./extractFacts.ts";
import type { AgentMessage } from "./types.ts";

export const STATE_VERSION = 1;

export interface StoredMessage {
  /** 1-based position in the session as this engine saw it; summary markers cite these numbers. */
  seq: number;
  hash: string;
  tokens: number;
  message: AgentMessage;
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
  method: "llm" | "deterministic";
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
}

export function summaryMarker(node: Pick<SummaryNode, "level" | "ordinal" | "fromSeq" | "toSeq">): string {
  return `[summary-tree L${node.level} #${node.ordinal} covers msgs ${node.fromSeq}-${node.toSeq}]`;
}

/** Summaries reach the model as user messages whose text starts with the marker line. */
export function renderSummaryMessage(node: Pick<SummaryNode, "level" | "ordinal" | "fromSeq" | "toSeq" | "text" | "lastTimestamp">): AgentMessage {
  return {
    role: "user",
    content: [{ type: "text", text: `${summaryMarker(node)}\n${node.text}` }],
    timestamp: node.lastTimestamp,
  };
}

export function timestampMs(message: AgentMessage): number {
  const ts = message.timestamp;
  if (typeof ts === "number" && Number.isFinite(ts)) return ts;
  if (typeof ts === "string") {
    const parsed = Date.parse(ts);
    return Number.isFinite(parsed) ? parsed : 0;
  }
  return 0;
}

export class SessionTree {
  sessionId: string;
  sessionKey: string | undefined;
  forkedFrom: string | undefined;
  /** Created for a subagent before the host told us its sessionId; adopted on the first call that names it. */
  placeholder = false;
  dirty = false;

  raw: StoredMessage[] = [];
  nodes: SummaryNode[] = [];
  levelCounters: number[] = [];
  private nextSeq = 1;
  private readonly hashes = new Set<string>();

  constructor(sessionId: string, sessionKey?: string) {
    this.sessionId = sessionId;
    this.sessionKey = sessionKey;
  }

  get messageCount(): number {
    return this.nextSeq - 1;
  }

  hasMessage(message: AgentMessage): boolean {
    return this.hashes.has(messageHash(message));
  }

  /** Adds a message unless an identical one was ingested before. Returns whether it was added. */
  append(message: AgentMessage): boolean {
    const hash = messageHash(message);
    if (this.hashes.has(hash)) return false;
    this.hashes.add(hash);
    // Copy: the host keeps mutating its own message objects (usage, stopReason) after handing them over.
    const copy = structuredClone(message);
    this.raw.push({ seq: this.nextSeq++, hash, tokens: estimateMessageTokens(copy), message: copy });
    this.dirty = true;
    return true;
  }

  activeRoots(): SummaryNode[] {
    return this.nodes.filter((node) => node.parentId === undefined).sort((a, b) => a.fromSeq - b.fromSeq);
  }

  rawTokens(): number {
    return this.raw.reduce((sum, m) => sum + m.tokens, 0);
  }

  /** Tokens of what assemble() would send with no budget limit. */
  totalTokens(): number {
    return this.activeRoots().reduce((sum, node) => sum + node.tokens, 0) + this.rawTokens();
  }

  leafCount(): number {
    return this.nodes.filter((node) => node.level === 0).length;
  }

  /** Levels in the tree: 0 with no summaries, 1 with leaves only, 2 once leaves were condensed, … */
  depth(): number {
    return this.nodes.reduce((max, node) => Math.max(max, node.level + 1), 0);
  }

  /** Replace raw tail, nodes and counters with a compaction result (see compactTree.ts). */
  commit(next: { raw: StoredMessage[]; nodes: SummaryNode[]; levelCounters: number[] }): void {
    this.raw = next.raw;
    this.nodes = next.nodes;
    this.levelCounters = next.levelCounters;
    this.dirty = true;
  }

  /** Deep copy under another session id (a forked subagent starts from its parent's summaries). */
  cloneAs(sessionId: string, sessionKey?: string): SessionTree {
    const snapshot = structuredClone(this.toSnapshot());
    const copy = SessionTree.fromSnapshot({ ...snapshot, sessionId, sessionKey, forkedFrom: this.sessionId });
    copy.dirty = true;
    return copy;
  }

  toSnapshot(): SessionSnapshot {
    return {
      version: STATE_VERSION,
      sessionId: this.sessionId,
      sessionKey: this.sessionKey,
      forkedFrom: this.forkedFrom,
      nextSeq: this.nextSeq,
      hashes: [...this.hashes],
      raw: this.raw,
      nodes: this.nodes,
      levelCounters: this.levelCounters,
    };
  }

  static fromSnapshot(snapshot: SessionSnapshot): SessionTree {
    const tree = new SessionTree(snapshot.sessionId, snapshot.sessionKey);
    tree.forkedFrom = snapshot.forkedFrom;
    tree.nextSeq = snapshot.nextSeq;
    for (const hash of snapshot.hashes) tree.hashes.add(hash);
    tree.raw = snapshot.raw;
    tree.nodes = snapshot.nodes;
    tree.levelCounters = snapshot.levelCounters;
    return tree;
  }
}

/** Loose structural check of a persisted snapshot; anything else is treated as absent. */
export function isSessionSnapshot(value: unknown): value is SessionSnapshot {
  if (!value || typeof value !== "object") return false;
  const s = value as Partial<SessionSnapshot>;
  return (
    s.version === STATE_VERSION &&
    typeof s.sessionId === "string" &&
    typeof s.nextSeq === "number" &&
    Array.isArray(s.hashes) &&
    Array.isArray(s.raw) &&
    Array.isArray(s.nodes) &&
    Array.isArray(s.levelCounters)
  );
}

// Per-engine-instance store of session trees, optionally mirrored to disk as a snapshot plus a journal:
//
//   <stateDir>/<sessionId>.json           the whole tree at some point (temp file + rename, never half written)
//   <stateDir>/<sessionId>.journal.jsonl  one line per mutation since then (JournalOp, numbered by `n`)
//
// A save appends the tree's pending operations to the journal, so a turn costs what it changed, not the size of
// the session. When the journal outgrows the snapshot (and at least JOURNAL_COMPACT_MIN_BYTES), the next save
// writes a fresh snapshot and empties the journal: each byte ends up rewritten a bounded number of times. Loading
// replays the snapshot, then the journal operations numbered above the snapshot's `journalSeq` (so a crash
// between writing a snapshot and emptying the journal loses nothing and applies nothing twice). A torn last
// journal line or a gap ends the replay and forces a snapshot on the next save.
//
// Trees load lazily on first use and are written back when dirty (after a turn, a compaction, a bootstrap, and
// on dispose). Calls for one session are serialized: afterTurn may still be summarizing when the next assemble
// arrives.

import { appendFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { SessionTree, isSessionSnapshot } from './sessionTree.ts';
import type { JournalOp } from './sessionTree.ts';
import type { PluginLogger } from './types.ts';

/** The journal is folded into a new snapshot once it is larger than the snapshot and at least this big. */
export const JOURNAL_COMPACT_MIN_BYTES = 1 << 20;

export interface SessionStoreOptions {
  dir: string;
  persist: boolean;
  logger: PluginLogger;
}

/** File name for a session id: keeps it readable, makes it safe (no separators, no leading dot). */
export function stateFileName(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9._-]/g, '_');
  return `${safe.startsWith('.') ? `_${safe}` : safe}.json`;
}

/** Journal next to the snapshot: `<name>.journal.jsonl`. */
export function journalFileName(sessionId: string): string {
  return stateFileName(sessionId).replace(/\.json$/, '.journal.jsonl');
}

interface DiskSizes {
  snapshotBytes: number;
  journalBytes: number;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class SessionStore {
  private readonly trees = new Map<string, SessionTree>();
  /** sessionKey → sessionId, learned from every call that carries both. */
  private readonly keyIndex = new Map<string, string>();
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Sizes of each persisted session's files as this instance last wrote or read them. */
  private readonly sizes = new Map<string, DiskSizes>();
  private readonly options: SessionStoreOptions;

  constructor(options: SessionStoreOptions) {
    this.options = options;
  }

  filePath(sessionId: string): string {
    return path.join(this.options.dir, stateFileName(sessionId));
  }

  journalPath(sessionId: string): string {
    return path.join(this.options.dir, journalFileName(sessionId));
  }

  /** Run `fn` after every earlier call for the same session has finished. */
  withLock<T>(sessionId: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(sessionId) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(sessionId, settled);
    void settled.then(() => {
      if (this.locks.get(sessionId) === settled) this.locks.delete(sessionId);
    });
    return run;
  }

  sessionIdForKey(sessionKey: string): string | undefined {
    return this.keyIndex.get(sessionKey);
  }

  /** The tree for a session: in memory, else from disk, else new. Adopts a subagent placeholder by key. */
  async get(sessionId: string, sessionKey?: string): Promise<SessionTree> {
    let tree = this.trees.get(sessionId);
    if (!tree && sessionKey) tree = this.adoptPlaceholder(sessionKey, sessionId);
    if (!tree) tree = (await this.load(sessionId)) ?? new SessionTree(sessionId, sessionKey);
    this.trees.set(sessionId, tree);
    if (sessionKey) {
      tree.sessionKey = sessionKey;
      this.keyIndex.set(sessionKey, sessionId);
    }
    return tree;
  }

  peek(sessionId: string): SessionTree | undefined {
    return this.trees.get(sessionId);
  }

  /** Install a tree (a forked child), replacing any tree under that id. */
  put(tree: SessionTree): void {
    this.trees.set(tree.sessionId, tree);
    if (tree.sessionKey) this.keyIndex.set(tree.sessionKey, tree.sessionId);
  }

  async save(tree: SessionTree): Promise<void> {
    if (!this.options.persist) {
      tree.pendingOps = []; // nothing will ever read them
      tree.needsSnapshot = false;
      return;
    }
    if (tree.placeholder) {
      // No file until the host names the child; adoption writes a snapshot, which covers these operations.
      tree.pendingOps = [];
      tree.needsSnapshot = true;
      return;
    }
    if (!tree.dirty) return;
    const sizes = this.sizes.get(tree.sessionId);
    const compact =
      sizes !== undefined && sizes.journalBytes > Math.max(JOURNAL_COMPACT_MIN_BYTES, sizes.snapshotBytes);
    try {
      if (tree.needsSnapshot || sizes === undefined || compact) await this.writeSnapshot(tree);
      else this.appendJournal(tree, sizes);
    } catch (error) {
      // State on disk is a cache of what the transcript already holds: losing a write costs a re-summary later.
      // The next save writes a whole snapshot (a failed append may have left a torn journal line behind).
      tree.needsSnapshot = true;
      this.options.logger.warn(
        `summary-tree: could not write the state of ${tree.sessionId} in ${this.options.dir}: ${errorText(error)}`,
      );
    }
  }

  private async writeSnapshot(tree: SessionTree): Promise<void> {
    const file = this.filePath(tree.sessionId);
    const temp = `${file}.${process.pid}.tmp`;
    const text = JSON.stringify(tree.toSnapshot());
    await mkdir(this.options.dir, { recursive: true });
    await writeFile(temp, text, 'utf8');
    await rename(temp, file);
    // Operations up to the snapshot's journalSeq are skipped on load, so emptying the journal can come second.
    await writeFile(this.journalPath(tree.sessionId), '', 'utf8');
    this.sizes.set(tree.sessionId, { snapshotBytes: Buffer.byteLength(text), journalBytes: 0 });
    tree.pendingOps = [];
    tree.needsSnapshot = false;
  }

  private appendJournal(tree: SessionTree, sizes: DiskSizes): void {
    if (tree.pendingOps.length === 0) return;
    const text = tree.pendingOps.map((op) => `${JSON.stringify(op)}\n`).join('');
    // One small append per save (a turn's operations): synchronous, because the promise version costs several
    // times the CPU (thread-pool round trips for open, write and close) for a write that takes microseconds.
    const bytes = Buffer.from(text, 'utf8');
    appendFileSync(this.journalPath(tree.sessionId), bytes);
    sizes.journalBytes += bytes.length;
    tree.pendingOps = [];
  }

  /** Forget a session in memory and on disk. */
  async drop(sessionId: string): Promise<void> {
    const tree = this.trees.get(sessionId);
    this.trees.delete(sessionId);
    if (tree?.sessionKey && this.keyIndex.get(tree.sessionKey) === sessionId) this.keyIndex.delete(tree.sessionKey);
    this.sizes.delete(sessionId);
    if (this.options.persist) {
      await rm(this.filePath(sessionId), { force: true });
      await rm(this.journalPath(sessionId), { force: true });
    }
  }

  async flushAll(): Promise<void> {
    for (const tree of this.trees.values()) await this.save(tree);
  }

  clear(): void {
    this.trees.clear();
    this.keyIndex.clear();
  }

  private adoptPlaceholder(sessionKey: string, sessionId: string): SessionTree | undefined {
    const placeholderId = this.keyIndex.get(sessionKey);
    const tree = placeholderId ? this.trees.get(placeholderId) : undefined;
    if (!tree || !tree.placeholder || placeholderId === undefined) return undefined;
    this.trees.delete(placeholderId);
    tree.sessionId = sessionId;
    tree.placeholder = false;
    tree.needsSnapshot = true;
    return tree;
  }

  private async load(sessionId: string): Promise<SessionTree | undefined> {
    if (!this.options.persist) return undefined;
    const file = this.filePath(sessionId);
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      return undefined; // first time we see this session
    }
    let tree: SessionTree;
    try {
      const parsed: unknown = JSON.parse(text);
      if (!isSessionSnapshot(parsed) || parsed.sessionId !== sessionId) {
        this.options.logger.warn(`summary-tree: ignoring ${file}: not a summary-tree state file for ${sessionId}.`);
        return undefined;
      }
      tree = SessionTree.fromSnapshot(parsed);
    } catch (error) {
      this.options.logger.warn(`summary-tree: ignoring unreadable ${file}: ${errorText(error)}`);
      return undefined;
    }
    const journalBytes = await this.replayJournal(tree);
    this.sizes.set(sessionId, { snapshotBytes: Buffer.byteLength(text), journalBytes });
    return tree;
  }

  /** Applies the journal to a freshly loaded tree; returns the journal's size in bytes. */
  private async replayJournal(tree: SessionTree): Promise<number> {
    const journal = this.journalPath(tree.sessionId);
    let text: string;
    try {
      if ((await stat(journal)).size === 0) return 0;
      text = await readFile(journal, 'utf8');
    } catch {
      return 0; // no journal yet (a fresh snapshot, or state written by version 1)
    }
    const lines = text.split('\n');
    // A final line without its newline is a write that did not finish.
    const torn = lines[lines.length - 1] !== '';
    let lineNumber = 0;
    for (const line of lines) {
      lineNumber++;
      if (line === '') continue;
      let op: JournalOp;
      try {
        op = JSON.parse(line) as JournalOp;
      } catch {
        this.stopReplay(
          tree,
          `${journal}:${lineNumber}: not JSON${torn && lineNumber === lines.length ? ' (an unfinished write)' : ''}`,
        );
        break;
      }
      if (!tree.replay(op)) {
        this.stopReplay(
          tree,
          `${journal}:${lineNumber}: operation ${String(op?.n)} does not follow ${tree.journalSeq}`,
        );
        break;
      }
    }
    if (torn && !tree.needsSnapshot) this.stopReplay(tree, `${journal}: the last line is unfinished`);
    return Buffer.byteLength(text);
  }

  private stopReplay(tree: SessionTree, why: string): void {
    tree.needsSnapshot = true;
    this.options.logger.warn(
      `summary-tree: ${why}; using the state up to operation ${tree.journalSeq}. The next save rewrites the snapshot.`,
    );
  }
}

// Per-engine-instance store of session trees, optionally mirrored to `<stateDir>/<sessionId>.json`.
//
// Trees load lazily from disk on first use and are written back only when dirty (after a turn, a compaction,
// a bootstrap, and on dispose), via a temp file + rename so a crash never leaves half a JSON file. Calls for
// one session are serialized: afterTurn may still be summarizing when the next assemble arrives.

import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

import { SessionTree, isSessionSnapshot } from "./sessionTree.ts";
import type { PluginLogger } from "./types.ts";

export interface SessionStoreOptions {
  dir: string;
  persist: boolean;
  logger: PluginLogger;
}

/** File name for a session id: keeps it readable, makes it safe (no separators, no leading dot). */
export function stateFileName(sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9._-]/g, "_");
  return `${safe.startsWith(".") ? `_${safe}` : safe}.json`;
}

export class SessionStore {
  private readonly trees = new Map<string, SessionTree>();
  /** sessionKey → sessionId, learned from every call that carries both. */
  private readonly keyIndex = new Map<string, string>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly options: SessionStoreOptions;

  constructor(options: SessionStoreOptions) {
    this.options = options;
  }

  filePath(sessionId: string): string {
    return path.join(this.options.dir, stateFileName(sessionId));
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
    if (!this.options.persist || !tree.dirty || tree.placeholder) return;
    const file = this.filePath(tree.sessionId);
    const temp = `${file}.${process.pid}.tmp`;
    try {
      await mkdir(this.options.dir, { recursive: true });
      await writeFile(temp, JSON.stringify(tree.toSnapshot()), "utf8");
      await rename(temp, file);
      tree.dirty = false;
    } catch (error) {
      // State on disk is a cache of what the transcript already holds: losing a write costs a re-summary later.
      this.options.logger.warn(
        `summary-tree: could not write ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Forget a session in memory and on disk. */
  async drop(sessionId: string): Promise<void> {
    const tree = this.trees.get(sessionId);
    this.trees.delete(sessionId);
    if (tree?.sessionKey && this.keyIndex.get(tree.sessionKey) === sessionId) this.keyIndex.delete(tree.sessionKey);
    if (this.options.persist) await rm(this.filePath(sessionId), { force: true });
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
    tree.dirty = true;
    return tree;
  }

  private async load(sessionId: string): Promise<SessionTree | undefined> {
    if (!this.options.persist) return undefined;
    const file = this.filePath(sessionId);
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      return undefined; // first time we see this session
    }
    try {
      const parsed: unknown = JSON.parse(text);
      if (isSessionSnapshot(parsed) && parsed.sessionId === sessionId) return SessionTree.fromSnapshot(parsed);
      this.options.logger.warn(`summary-tree: ignoring ${file}: not a summary-tree state file for ${sessionId}.`);
    } catch (error) {
      this.options.logger.warn(
        `summary-tree: ignoring unreadable ${file}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    return undefined;
  }
}

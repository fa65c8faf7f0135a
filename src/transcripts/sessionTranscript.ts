/**
 * A live session transcript (contract `SessionTranscriptHandle`): entries in memory, optionally mirrored to a
 * JSONL file. Appends are synchronous (`appendFileSync`), so another process reading the file sees every
 * entry as soon as `appendEntry` returns, and the bytes are what OpenClaw would have written.
 */
import { appendFileSync } from 'node:fs';
import type { NewSessionEntry, SessionEntry, SessionHeader, SessionTranscriptHandle } from '../contract';
import { generateEntryId, randomEntryIdSource, type EntryIdSource } from './entryIds';
import { serializeSessionLine, writeSessionFileSync } from './serializeSession';
import { SessionTreeIndex } from './sessionTree';

export interface CreateSessionTranscriptOptions {
  header: SessionHeader;
  /** existing entries, in file order */
  entries?: readonly SessionEntry[];
  /** mirror file; written once (header + entries) unless `writeInitial` is false, then appended to */
  sessionFile?: string;
  /** default true; false when the file already holds exactly `header` + `entries` */
  writeInitial?: boolean;
  /** id source (tests and the generator pass a seeded one) */
  idSource?: EntryIdSource;
  /** clock for entry timestamps when an appended entry has none */
  now?: () => Date;
}

/** The contract handle plus read access ContextScope's own tools use. */
export interface SessionTranscript extends SessionTranscriptHandle {
  /** every entry in file order (all branches) */
  entries(): readonly SessionEntry[];
  /** raw parent the next append will get */
  appendParentId(): string | null;
  getEntry(id: string): SessionEntry | undefined;
  /** appends a `leaf` entry moving the visible leaf to `targetId` (which must exist) */
  moveLeaf(targetId: string | null): SessionEntry;
}

export function createSessionTranscript(options: CreateSessionTranscriptOptions): SessionTranscript {
  const header = options.header;
  const all: SessionEntry[] = [...(options.entries ?? [])];
  const tree = new SessionTreeIndex(all);
  const idSource = options.idSource ?? randomEntryIdSource;
  const now = options.now ?? (() => new Date());
  const sessionFile = options.sessionFile;

  if (sessionFile && options.writeInitial !== false) {
    writeSessionFileSync(sessionFile, { header, entries: all });
  }

  const record = (entry: SessionEntry): SessionEntry => {
    if (sessionFile) appendFileSync(sessionFile, serializeSessionLine(entry), 'utf8');
    all.push(entry);
    tree.add(entry);
    return entry;
  };

  const appendEntry = (input: NewSessionEntry): SessionEntry => {
    const { type, timestamp, ...rest } = input as NewSessionEntry & Record<string, unknown>;
    if (type === 'leaf') {
      const targetId = (input as { targetId: string | null }).targetId;
      if (targetId !== null && !tree.byId.has(targetId)) {
        throw new Error(`Cannot move the leaf of session ${header.id}: entry ${targetId} not found`);
      }
    }
    // Key order matches OpenClaw's entry objects: type, id, parentId, timestamp, then the payload.
    const entry = {
      type,
      id: generateEntryId(tree.byId, idSource),
      parentId: tree.appendParentId,
      timestamp: timestamp ?? now().toISOString(),
      ...rest,
    } as SessionEntry;
    return record(entry);
  };

  return {
    sessionId: header.id,
    sessionFile,
    header,
    activePath: () => tree.pathTo(tree.leafId),
    leafId: () => tree.leafId,
    appendEntry,
    entries: () => all,
    appendParentId: () => tree.appendParentId,
    getEntry: (id) => tree.byId.get(id),
    moveLeaf: (targetId) => appendEntry({ type: 'leaf', targetId }),
  };
}

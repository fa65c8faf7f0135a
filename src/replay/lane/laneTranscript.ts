/**
 * Whole on purpose (about 460 lines): one class whose entries, active branch, id maps and context cache change together.
 *
 * One lane's own simulated transcript. It receives the recorded session's entries turn by turn plus whatever the
 * lane itself produces (its compactions, transcript rewrites), so two lanes diverge exactly where their engines
 * do. Appends go to an in-memory tree and, once the transcript "exists" (after the first turn wrote it, as
 * OpenClaw's session manager does), to a real JSONL file that engines may read via `sessionFile`. The recorded
 * entries of a turn are written in one batch when the runner calls `materialize()` after appending them; every
 * other append is written at once, and reading `sessionFile` (or the handle's) writes anything still pending, so
 * whoever is handed the path reads a current file. Lanes whose engine never reads the file defer all writes
 * (`deferWrites`) until someone asks for it.
 *
 * Lane entries get fresh ids (the transcript assigns them); the lane keeps a map from its ids to the recorded
 * entry ids so every message keeps the identity it has in the recorded session.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type {
  AgentMessage,
  NewSessionEntry,
  SessionEntry,
  SessionHeader,
  SessionTranscriptHandle,
  TranscriptRewriteRequest,
  TranscriptRewriteResult,
} from '../../contract';
import {
  buildContextFromPath,
  createSessionTranscript,
  openSessionTranscript,
  serializeSessionEntries,
  serializeSessionLine,
  type EntryIdSource,
  type SessionTranscript,
} from '../../transcripts';
import type { TrackedTranscriptHandle } from '../../engines/legacy';
import type { SummaryMarker } from '../recording/summaryMarkers';

/** Entry types that never go into a lane transcript: they would move the lane's leaf or point at foreign ids. */
const SKIPPED_TYPES: ReadonlySet<string> = new Set(['leaf', 'label']);

export interface LaneContext {
  messages: AgentMessage[];
  /** identity key of each message: the recorded entry id, or the lane entry id for lane-made entries */
  keys: string[];
}

export interface LaneTranscriptOptions {
  header: SessionHeader;
  /** where the JSONL mirror lives once the transcript exists */
  sessionFile: string;
  /** false: keep the transcript in memory only (the file never exists) */
  writeFile: boolean;
  /**
   * Write the file only when asked (`flush()`, reading `sessionFile` or the handle's): for lanes whose engine
   * never reads it (the built-in legacy engine works on the live transcript), so a replay does not serialize the
   * whole session once more per lane. Engine calls then get the path from `sessionFilePath`.
   */
  deferWrites?: boolean;
  /** entry ids derived from this (the lane id) instead of random ones: replays are then reproducible */
  idSeed?: string;
}

function stripIdentity(entry: SessionEntry): NewSessionEntry {
  const { id: _id, parentId: _parentId, ...rest } = entry as SessionEntry & Record<string, unknown>;
  return rest as unknown as NewSessionEntry;
}

/** Random 8-hex-char entry ids like `randomEntryIdSource`, drawn from a pool (one `randomBytes` call per 1,024 ids). */
function pooledRandomIdSource(): EntryIdSource {
  let pool = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 4 > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    at += 4;
    return pool.toString('hex', at - 4, at);
  };
}

/**
 * Entry ids from a hash of the seed and a counter: the same replay makes the same ids (they are message keys in the
 * Recording, so two replays of one session can be compared byte for byte), and lanes with different seeds differ.
 */
function seededIdSource(seed: string): EntryIdSource {
  let n = 0;
  return () => createHash('sha256').update(`${seed}\u0000${n++}`).digest('hex').slice(0, 8);
}

/** Entries after which the context must be rebuilt (they change what comes before them). */
const BOUNDARY_TYPES: ReadonlySet<string> = new Set(['compaction', 'reset', 'leaf']);

export class LaneTranscript {
  private transcript: SessionTranscript;
  private materialized = false;
  private readonly idSource: EntryIdSource;
  /** the file `transcript` is mirrored to (set once materialized), and how many of its entries the file holds */
  private mirrorFile: string | undefined;
  private mirrored = 0;
  /**
   * The active branch, kept incrementally: appends go to the leaf, so the path only grows, except after a leaf
   * move (transcript rewrite) or a successor switch, when it is read again. Avoids an O(path) walk per call.
   */
  private path: SessionEntry[] = [];
  /** the first index of each entry id on `path` */
  private pathIndex = new Map<string, number>();
  /** message entries of `path` before each index (the active message position of a message entry) */
  private messagesBefore: number[] = [];
  /** transcript seq of each entry (the header is seq 0), as OpenClaw's turn anchors name it */
  private readonly seqOf = new Map<string, number>();
  /** the model context of `path[0, upTo)`, extended with the entries appended since (none of them boundaries) */
  private cachedContext: { messages: AgentMessage[]; keys: string[]; upTo: number } | null = null;
  private readonly sharedHandle: SessionTranscriptHandle;
  private readonly laneToRecorded = new Map<string, string>();
  private readonly recordedToLane = new Map<string, string>();
  /** lane entry ids whose message the lane rewrote (their content no longer matches the recorded entry) */
  private readonly rewritten = new Set<string>();
  sessionId: string;
  private currentSessionFile: string;

  constructor(private readonly options: LaneTranscriptOptions) {
    this.idSource = options.idSeed !== undefined ? seededIdSource(options.idSeed) : pooledRandomIdSource();
    this.sessionId = options.header.id;
    this.currentSessionFile = options.sessionFile;
    this.transcript = createSessionTranscript({ header: options.header, idSource: this.idSource, now: this.clock });
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the handle's getters read the live lane
    const lane = this;
    const handle: TrackedTranscriptHandle = {
      get sessionId() {
        return lane.transcript.sessionId;
      },
      get sessionFile() {
        lane.flush();
        return lane.mirrorFile;
      },
      get header() {
        return lane.transcript.header;
      },
      activePath: () => this.path.slice(),
      leafId: () => this.transcript.leafId(),
      appendEntry: (entry) => {
        const appended = this.track(this.transcript.appendEntry(entry));
        this.writeThrough();
        return appended;
      },
      contextMessages: () => this.currentContext().messages,
      contextPath: () => this.path.slice(this.contextStart()),
    };
    this.sharedHandle = handle;
  }

  /** Where engines find the transcript; the file holds every entry appended so far when this is read. */
  get sessionFile(): string {
    this.flush();
    return this.currentSessionFile;
  }

  /** The path engine calls are given: the file is current unless writes are deferred (see `deferWrites`). */
  get engineSessionFile(): string {
    this.writeThrough();
    return this.currentSessionFile;
  }

  /** Write the entries not yet in the mirror file (the whole file first, when writes were deferred). */
  flush(): void {
    const entries = this.transcript.entries();
    if (this.mirrorFile === undefined) {
      if (this.materialized) this.writeWhole();
      return;
    }
    if (this.mirrored === entries.length) return;
    let lines = '';
    for (let i = this.mirrored; i < entries.length; i++) lines += serializeSessionLine(entries[i]!);
    appendFileSync(this.mirrorFile, lines, 'utf8');
    this.mirrored = entries.length;
  }

  /**
   * The live transcript handle the built-in compaction appends to. Appends through it keep the lane's cached path
   * and context in step. It also offers the context it keeps (see TrackedTranscriptHandle), so the built-in
   * compaction does not rebuild it from the whole path.
   */
  get handle(): SessionTranscriptHandle {
    return this.sharedHandle;
  }

  /**
   * Entries the lane makes itself (compactions) are stamped just after the latest entry, not with the wall clock:
   * the recording's later messages must stay later than the lane's compactions (usage sanitizing compares them).
   */
  private lastEntryMs = 0;
  private readonly clock = (): Date => new Date((this.lastEntryMs += 1));

  /** the newest entry's time (ms), else the header's: the lane's transcript time */
  get latestEntryMs(): number {
    return this.lastEntryMs || Date.parse(this.options.header.timestamp) || 0;
  }

  private track(entry: SessionEntry): SessionEntry {
    const ms = Date.parse(entry.timestamp);
    if (Number.isFinite(ms) && ms > this.lastEntryMs) this.lastEntryMs = ms;
    this.seqOf.set(entry.id, this.transcript.entries().length);
    if (entry.type === 'leaf') this.reloadPath();
    else this.pushPath(entry);
    return entry;
  }

  private pushPath(entry: SessionEntry): void {
    const i = this.path.length;
    if (!this.pathIndex.has(entry.id)) this.pathIndex.set(entry.id, i);
    const previous = i === 0 ? 0 : this.messagesBefore[i - 1]! + (this.path[i - 1]!.type === 'message' ? 1 : 0);
    this.messagesBefore.push(previous);
    this.path.push(entry);
  }

  private reloadPath(): void {
    const path = this.transcript.activePath();
    this.path = [];
    this.pathIndex = new Map();
    this.messagesBefore = [];
    for (const entry of path) this.pushPath(entry);
    this.cachedContext = null;
  }

  /** Where an entry stands in this transcript, as OpenClaw's turn anchors name it (undefined when off the branch). */
  anchorFacts(
    laneEntryId: string,
  ): { rawSeq: number; effectiveParentId: string | null; activeMessagePosition: number } | undefined {
    const index = this.pathIndex.get(laneEntryId);
    const seq = this.seqOf.get(laneEntryId);
    if (index === undefined || seq === undefined) return undefined;
    const entry = this.path[index]!;
    return {
      rawSeq: seq,
      effectiveParentId: entry.parentId ?? null,
      activeMessagePosition: this.messagesBefore[index]!,
    };
  }

  /**
   * Where the model context of the path starts, as `buildContextFromPath` reads it: the latest compaction or reset's
   * first kept entry when it comes before the boundary, else the boundary; 0 without one.
   */
  private contextStart(): number {
    for (let i = this.path.length - 1; i >= 0; i--) {
      const entry = this.path[i]!;
      if (entry.type !== 'compaction' && entry.type !== 'reset') continue;
      const kept = entry.firstKeptEntryId === undefined ? undefined : this.pathIndex.get(entry.firstKeptEntryId);
      return kept !== undefined && kept < i ? kept : i;
    }
    return 0;
  }

  private writeThrough(): void {
    if (!this.options.deferWrites) this.flush();
  }

  private writeWhole(): void {
    const entries = this.transcript.entries();
    mkdirSync(dirname(this.currentSessionFile), { recursive: true });
    writeFileSync(this.currentSessionFile, serializeSessionEntries(this.transcript.header, entries), 'utf8');
    this.mirrorFile = this.currentSessionFile;
    this.mirrored = entries.length;
  }

  /** OpenClaw's "the transcript file already existed" (decides whether bootstrap runs). */
  existsOnDisk(): boolean {
    if (!this.options.writeFile || !this.materialized) return false;
    return this.mirrorFile === undefined ? true : existsSync(this.sessionFile);
  }

  /**
   * Start mirroring to `sessionFile`: writes header + entries once; later appends are added to it. Once
   * materialized, writes the entries appended since (the runner calls this after appending a turn's entries).
   */
  materialize(): void {
    if (!this.options.writeFile) return;
    if (this.materialized) {
      this.writeThrough();
      return;
    }
    this.materialized = true;
    if (!this.options.deferWrites) this.writeWhole();
  }

  /** The recorded entry id behind a lane entry id (undefined for lane-made or rewritten entries). */
  recordedIdOf(laneId: string): string | undefined {
    return this.rewritten.has(laneId) ? undefined : this.laneToRecorded.get(laneId);
  }

  /** A lane id for an id an engine reported: lane ids pass through, recorded ids are mapped. */
  laneIdOf(id: string): string | undefined {
    if (this.transcript.getEntry(id)) return id;
    return this.recordedToLane.get(id);
  }

  /** The identity key of a lane entry: its recorded id when it has one, else the lane id. */
  keyOf(laneId: string): string {
    return this.recordedIdOf(laneId) ?? laneId;
  }

  private mapId(id: string | undefined): string | undefined {
    if (id === undefined) return undefined;
    return this.recordedToLane.get(id) ?? id;
  }

  /**
   * Append a recorded entry (ids remapped); returns the lane entry, or undefined when the type is skipped.
   * `rewritten`: the entry's message differs from the recorded one (a plugin hook rewrote it), so it keys as a lane entry.
   */
  appendRecorded(entry: SessionEntry, options: { rewritten?: boolean } = {}): SessionEntry | undefined {
    if (SKIPPED_TYPES.has(entry.type)) return undefined;
    const input = stripIdentity(entry) as NewSessionEntry & Record<string, unknown>;
    if ((entry.type === 'compaction' || entry.type === 'reset') && typeof entry.firstKeptEntryId === 'string') {
      input.firstKeptEntryId = this.mapId(entry.firstKeptEntryId);
    }
    const appended = this.transcript.appendEntry(input);
    this.laneToRecorded.set(appended.id, entry.id);
    this.recordedToLane.set(entry.id, appended.id);
    if (options.rewritten) this.rewritten.add(appended.id);
    return this.track(appended);
  }

  /** Append an entry the lane itself produced. */
  appendOwn(entry: NewSessionEntry): SessionEntry {
    const appended = this.track(this.transcript.appendEntry(entry));
    this.writeThrough();
    return appended;
  }

  /** The active branch, root first (a copy). */
  activePath(): SessionEntry[] {
    return this.path.slice();
  }

  private keysFor(ids: readonly (string | undefined)[], offset: number): string[] {
    return ids.map((id, i) => (id === undefined ? `lane:${offset + i}` : this.keyOf(id)));
  }

  /**
   * What the model would see from this transcript, with identity keys. Incremental: entries appended since the
   * last call are projected on their own (exactly as buildContextFromPath projects entries after the boundary);
   * a new compaction/reset/leaf move rebuilds it from the latest boundary.
   */
  context(): LaneContext {
    const ctx = this.currentContext();
    return { messages: ctx.messages.slice(), keys: ctx.keys.slice() };
  }

  private currentContext(): { messages: AgentMessage[]; keys: string[] } {
    const cached = this.cachedContext;
    const fresh = cached ? this.path.slice(cached.upTo) : undefined;
    if (!cached || !fresh || fresh.some((e) => BOUNDARY_TYPES.has(e.type))) {
      const built = buildContextFromPath(this.path.slice(this.contextStart()));
      this.cachedContext = {
        messages: built.messages,
        keys: this.keysFor(built.messageEntryIds, 0),
        upTo: this.path.length,
      };
    } else if (fresh.length > 0) {
      const built = buildContextFromPath(fresh);
      cached.keys.push(...this.keysFor(built.messageEntryIds, cached.messages.length));
      cached.messages.push(...built.messages);
      cached.upTo = this.path.length;
    }
    return this.cachedContext!;
  }

  /**
   * Summaries this lane knows by key: its compaction entries (firstKeptEntryId mapped to the recorded id).
   * Recorded compaction entries appended when honoured are known the same way.
   */
  summaryMarker(key: string): SummaryMarker | undefined {
    const laneId = this.laneIdOf(key) ?? key;
    const entry = this.transcript.getEntry(laneId);
    if (!entry || entry.type !== 'compaction') return undefined;
    const first = entry.firstKeptEntryId;
    return first ? { coversBeforeEntryId: this.keyOf(first) } : {};
  }

  /** Switch to a successor transcript a compaction named (OpenClaw adopts it for the retry). */
  async adoptSuccessor(sessionId: string | undefined, sessionFile: string | undefined): Promise<void> {
    this.flush();
    if (sessionFile && sessionFile !== this.currentSessionFile) {
      if (existsSync(sessionFile)) {
        // the successor file is read once and mirrored from here on (its entries are in it already)
        const opened = await openSessionTranscript(sessionFile);
        this.transcript = createSessionTranscript({
          header: opened.header,
          entries: opened.entries(),
          idSource: this.idSource,
          now: this.clock,
        });
        this.mirrorFile = sessionFile;
        this.mirrored = opened.entries().length;
        this.materialized = true;
        this.reloadPath();
      }
      this.currentSessionFile = sessionFile;
    }
    if (sessionId) this.sessionId = sessionId;
  }

  /**
   * `runtimeContext.rewriteTranscriptEntries`: one branch-and-reappend pass on the active branch. The leaf moves
   * to the parent of the first replaced entry, and that entry and everything after it are appended again (with
   * the replacement messages), so the file stays append-only.
   */
  rewriteEntries(request: TranscriptRewriteRequest): TranscriptRewriteResult {
    const path = this.path.slice();
    const replacements = new Map<string, AgentMessage>();
    for (const r of request.replacements ?? []) {
      const laneId = this.laneIdOf(r.entryId);
      if (laneId !== undefined) replacements.set(laneId, r.message);
    }
    const first = path.findIndex((e) => replacements.has(e.id) && e.type === 'message');
    if (first === -1) {
      return {
        changed: false,
        bytesFreed: 0,
        rewrittenEntries: 0,
        reason: 'no replacement names an entry on the active branch',
      };
    }
    this.track(this.transcript.moveLeaf(first === 0 ? null : path[first - 1].id));
    const newIdOf = new Map<string, string>();
    let bytesFreed = 0;
    let rewrittenEntries = 0;
    for (const old of path.slice(first)) {
      const input = stripIdentity(old) as NewSessionEntry & Record<string, unknown>;
      const replacement = replacements.get(old.id);
      if (replacement && old.type === 'message') {
        input.message = replacement;
        const before = Buffer.byteLength(serializeSessionLine(old));
        const after = Buffer.byteLength(serializeSessionLine({ ...old, message: replacement } as SessionEntry));
        bytesFreed += before - after;
        rewrittenEntries++;
      }
      if ((old.type === 'compaction' || old.type === 'reset') && old.firstKeptEntryId) {
        input.firstKeptEntryId = newIdOf.get(old.firstKeptEntryId) ?? old.firstKeptEntryId;
      }
      const appended = this.track(this.transcript.appendEntry(input));
      newIdOf.set(old.id, appended.id);
      const recorded = this.recordedIdOf(old.id);
      if (recorded !== undefined) {
        this.laneToRecorded.set(appended.id, recorded);
        this.recordedToLane.set(recorded, appended.id);
      }
      if (replacement || this.rewritten.has(old.id)) this.rewritten.add(appended.id);
    }
    this.writeThrough();
    return { changed: rewrittenEntries > 0, bytesFreed: Math.max(0, bytesFreed), rewrittenEntries };
  }

  /** Size of the JSONL mirror in bytes (0 when it does not exist). */
  fileBytes(): number {
    return this.existsOnDisk() ? statSync(this.sessionFile).size : 0;
  }
}

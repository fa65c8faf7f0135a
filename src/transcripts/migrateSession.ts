/**
 * Bringing version-1 and version-2 transcripts to version 3, record by record while streaming (the pi harness
 * `migrateV1ToV2` / `migrateV2ToV3` rules):
 * - v1 entries have no `id`/`parentId`: each gets an id and the previous entry as parent (a linear chain), and a
 *   compaction's `firstKeptEntryIndex` (an index into the file's records, header = 0) becomes `firstKeptEntryId`;
 * - v2 → v3 renames the message role `hookMessage` to `custom`;
 * - the header's `version` becomes 3 (its other keys, and their order, are kept).
 * pi draws random ids; ContextScope derives them from the session id and record index instead, so reading the
 * same v1 file twice gives the same ids.
 */
export class SessionMigrator {
  readonly fromVersion: number;
  private readonly sessionId: string;
  private readonly recordIds: (string | undefined)[] = [undefined];
  private readonly usedIds = new Set<string>();
  private previousId: string | null = null;

  constructor(header: Record<string, unknown>) {
    this.fromVersion = typeof header.version === 'number' ? header.version : 1;
    this.sessionId = String(header.id);
  }

  get needed(): boolean {
    return this.fromVersion < 3;
  }

  /** Rewrites the header in place to version 3. */
  migrateHeader(header: Record<string, unknown>): void {
    if (this.needed) header.version = 3;
  }

  /**
   * Migrates one entry record in place. `recordIndex` counts parsed records from the header (0), so it matches
   * the indexes v1 compactions stored in `firstKeptEntryIndex`.
   */
  migrateEntry(entry: Record<string, unknown>, recordIndex: number): void {
    if (this.fromVersion < 2) {
      const id = this.nextId(recordIndex);
      entry.id = id;
      entry.parentId = this.previousId;
      this.previousId = id;
      this.recordIds[recordIndex] = id;
      if (entry.type === 'compaction' && typeof entry.firstKeptEntryIndex === 'number') {
        const keptId = this.recordIds[entry.firstKeptEntryIndex];
        if (keptId !== undefined) entry.firstKeptEntryId = keptId;
        delete entry.firstKeptEntryIndex;
      }
    }
    if (this.fromVersion < 3 && entry.type === 'message') {
      const message = entry.message as { role?: unknown } | undefined;
      if (message && message.role === 'hookMessage') message.role = 'custom';
    }
  }

  private nextId(recordIndex: number): string {
    for (let salt = 0; ; salt++) {
      const id = fnv1aHex(`${this.sessionId}:${recordIndex}:${salt}`);
      if (!this.usedIds.has(id)) {
        this.usedIds.add(id);
        return id;
      }
    }
  }
}

/** 32-bit FNV-1a as 8 hex chars. */
function fnv1aHex(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

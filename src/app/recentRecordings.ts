/**
 * The recent recordings, kept in `<app config dir>/recordings/`: one `<id>.json` per recording (the JSON the app
 * and `contextscope replay --json` export) and `index.json` listing them, most recently opened first. Bounded:
 * at most `maxCount` recordings and `maxBytes` in all; the least recently opened go first (the newest one is
 * always kept, whatever its size). Every write is atomic.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { Type } from '@sinclair/typebox';
import { BridgeMethodError, RecentRecordingSchema, type RecentRecording } from '../bridge';
import { errorMessage, writeFileAtomic } from '../common';
import type { Recording } from '../contract';
import { importRecording } from '../replay';

export const MAX_RECENT_RECORDINGS = 12;
export const MAX_RECENT_BYTES = 96 * 1024 * 1024;

/** Where the recent recordings of the app config dir `configDir` are kept (the app and any CLI share the folder). */
export function recentRecordingsDir(configDir: string): string {
  return join(configDir, 'recordings');
}

export interface RecentRecordingsOptions {
  dir: string;
  maxCount?: number;
  maxBytes?: number;
  now?: () => number;
}

const IndexSchema = Type.Array(RecentRecordingSchema);
const ID_PATTERN = /^[a-z0-9-]{1,80}$/;

export interface RecordingMeta {
  title: string;
  origin: 'replay' | 'file';
  fileName?: string;
  replayId?: string;
}

export interface RecentRecordings {
  readonly dir: string;
  readonly maxCount: number;
  readonly maxBytes: number;
  list(): RecentRecording[];
  /** Keeps `recording` (its JSON text `content`) at the top of the list and enforces the bounds. */
  add(recording: Recording, content: string, meta: RecordingMeta): RecentRecording;
  /** The entry `id` made the most recently opened, and its recording. */
  open(id: string): { entry: RecentRecording; recording: Recording };
  /** The entry `id` (not_found at `/id` when the list has none); `touch`: it becomes the most recently opened. */
  entry(id: string, touch?: boolean): RecentRecording;
  /** The recording of entry `id`, read from its file. */
  read(id: string): Recording;
  remove(id: string): boolean;
}

export function createRecentRecordings(options: RecentRecordingsOptions): RecentRecordings {
  const { dir } = options;
  const maxCount = options.maxCount ?? MAX_RECENT_RECORDINGS;
  const maxBytes = options.maxBytes ?? MAX_RECENT_BYTES;
  const now = options.now ?? Date.now;
  const indexFile = join(dir, 'index.json');
  const fileOf = (id: string) => join(dir, `${id}.json`);

  function readIndex(): RecentRecording[] {
    if (!existsSync(indexFile)) return [];
    try {
      const parsed: unknown = JSON.parse(readFileSync(indexFile, 'utf8'));
      // entries whose file went missing are dropped; an index that is not ours reads as empty
      return Value.Check(IndexSchema, parsed) ? parsed.filter((entry) => existsSync(fileOf(entry.id))) : [];
    } catch {
      return [];
    }
  }

  function writeIndex(entries: RecentRecording[]): void {
    writeFileAtomic(indexFile, `${JSON.stringify(entries, null, 2)}\n`);
  }

  /** The first `maxCount` entries within `maxBytes` (the first one always); the files of the rest are removed. */
  function bounded(entries: RecentRecording[]): RecentRecording[] {
    const kept: RecentRecording[] = [];
    let bytes = 0;
    for (const entry of entries) {
      const fits = kept.length === 0 || (kept.length < maxCount && bytes + entry.bytes <= maxBytes);
      if (fits) {
        kept.push(entry);
        bytes += entry.bytes;
      } else rmSync(fileOf(entry.id), { force: true });
    }
    return kept;
  }

  return {
    dir,
    maxCount,
    maxBytes,
    list: readIndex,
    add(recording, content, meta) {
      const entry = entryFor(recording, content, meta, now());
      try {
        writeFileAtomic(fileOf(entry.id), content);
        writeIndex(bounded([entry, ...readIndex()]));
      } catch (error) {
        throw new BridgeMethodError('io_error', `Could not keep the recording in ${dir}: ${errorMessage(error)}`);
      }
      return entry;
    },
    open(id) {
      const entry = this.entry(id, true);
      return { entry, recording: this.read(id) };
    },
    entry(id, touch = false) {
      const entries = readIndex();
      const found = ID_PATTERN.test(id) ? entries.find((entry) => entry.id === id) : undefined;
      if (!found)
        throw new BridgeMethodError('not_found', `No recent recording ${id} (the list has ${entries.length}).`, '/id');
      if (!touch) return found;
      const entry = { ...found, openedAt: now() };
      writeIndex([entry, ...entries.filter((e) => e.id !== id)]);
      return entry;
    },
    read(id) {
      if (!ID_PATTERN.test(id)) throw new BridgeMethodError('not_found', `No recent recording ${id}.`, '/id');
      return importRecording(readFileSync(fileOf(id), 'utf8'), fileOf(id));
    },
    remove(id) {
      const entries = readIndex();
      if (!ID_PATTERN.test(id) || !entries.some((entry) => entry.id === id)) return false;
      rmSync(fileOf(id), { force: true });
      writeIndex(entries.filter((entry) => entry.id !== id));
      return true;
    },
  };
}

function entryFor(recording: Recording, content: string, meta: RecordingMeta, at: number): RecentRecording {
  const sessionKey = recording.lanes.find((lane) => lane.sessionId === recording.session.sessionId)?.sessionKey;
  return {
    id: `${at.toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    title: meta.title || sessionKey || recording.session.sessionId,
    origin: meta.origin,
    ...(meta.fileName ? { fileName: meta.fileName } : {}),
    ...(meta.replayId ? { replayId: meta.replayId } : {}),
    sessionId: recording.session.sessionId,
    ...(sessionKey ? { sessionKey } : {}),
    lanes: recording.lanes.map((lane) => lane.label),
    turns: Math.max(0, ...Object.values(recording.turns).map((turns) => turns.length)),
    bytes: Buffer.byteLength(content),
    savedAt: at,
    openedAt: at,
  };
}

/**
 * The bridge methods other than `replay.get` that answer with a Recording (`recordings.open`, `recordings.import`,
 * `batch.recording`) keep within the bridge's message bound the same way: the Recording whole when it fits, else
 * `paged`, and read with `from` (and `count`) in the pages of recordingPages.ts. What a reading needs between pages
 * (the Recording and its TurnLog) is kept here under the method's key, for a few readings at a time: an entry goes
 * when its last page is read, or when newer readings push it out (least recently read first).
 */
import type { Recording } from '../../contract/recording';
import {
  recordingFitsInline,
  recordingPage,
  type PageCache,
  type RecordingPage,
  type RecordingPageRequest,
} from './recordingPages';

/** readings kept between pages at once (each holds a Recording and its TurnLog) */
export const MAX_PAGED_READINGS = 4;

/** A Recording as a bounded answer: whole, `paged` (read it with `from`), or the page asked for. */
export type RecordingAnswer = { recording: Recording } | { paged: true } | { page: RecordingPage };

export interface PagedRecordings {
  /**
   * The answer to `request` for the Recording known as `key`; `load` gives it (not called for a page of a reading
   * that is kept).
   */
  answer(key: string, load: () => Recording, request: RecordingPageRequest): RecordingAnswer;
  /** the keys of the readings kept now, least recently read first */
  keys(): string[];
}

interface Reading {
  recording: Recording;
  cache: PageCache;
}

export function createPagedRecordings(maxReadings = MAX_PAGED_READINGS): PagedRecordings {
  const readings = new Map<string, Reading>();

  const keep = (key: string, reading: Reading) => {
    readings.delete(key);
    readings.set(key, reading);
    for (const old of readings.keys()) {
      if (readings.size <= maxReadings) break;
      readings.delete(old);
    }
  };

  return {
    answer(key, load, request) {
      if (request.from === undefined && request.count === undefined) {
        const recording = load();
        if (recordingFitsInline(recording)) return { recording };
        keep(key, { recording, cache: {} });
        return { paged: true };
      }
      const reading = readings.get(key) ?? { recording: load(), cache: {} };
      const page = recordingPage(reading.cache, reading.recording, request);
      if (page.more) keep(key, reading);
      else readings.delete(key);
      return { page };
    },
    keys: () => [...readings.keys()],
  };
}

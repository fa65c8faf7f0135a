/** The Recording as a JSON document (re-importable with `importRecording`). */
import type { Recording } from '../../contract/recording';

/** Compact by default (recordings of 1,000 turns are large); `pretty` indents for reading. */
export function exportRecordingJson(recording: Recording, options: { pretty?: boolean } = {}): string {
  return JSON.stringify(recording, null, options.pretty ? 2 : undefined);
}

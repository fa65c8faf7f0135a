/**
 * Writes a Recording file as a stream (`recordingJsonChunks`) through `writeChunksAtomic`: readers see the old file
 * or the new one, never a partial one, no string ever holds the whole document, and a symbolic link is refused.
 */
import { writeChunksAtomic } from '../../common/writeChunksAtomic';
import type { Recording } from '../../contract/recording';
import { recordingJsonChunks } from './exportRecording';

/** Writes `recording` to `file` (format 2, compact), streamed and atomic; returns the bytes written. */
export function writeRecordingFile(file: string, recording: Recording): { file: string; bytes: number } {
  return writeChunksAtomic(file, recordingJsonChunks(recording));
}

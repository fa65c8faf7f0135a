/** A live transcript backed by an existing JSONL file: loaded strictly, then every append is mirrored to the file. */
import { readSessionFile } from './readSessionFile';
import {
  createSessionTranscript,
  type CreateSessionTranscriptOptions,
  type SessionTranscript,
} from './sessionTranscript';

export async function openSessionTranscript(
  path: string,
  options: Pick<CreateSessionTranscriptOptions, 'idSource' | 'now'> = {},
): Promise<SessionTranscript> {
  const session = await readSessionFile(path, { mode: 'strict' });
  if (session.sourceVersion < 3) {
    // Appending v3 lines to a v1/v2 file would leave a file that no longer says what it holds.
    throw new Error(
      `Cannot append to ${path}: it is a version ${session.sourceVersion} transcript. Rewrite it as version 3 first (read it and writeSessionFile to a new path).`,
    );
  }
  return createSessionTranscript({
    ...options,
    header: session.header,
    entries: session.entries,
    sessionFile: path,
    writeInitial: false,
  });
}

/**
 * The dispatcher's side of uploaded params (see piecedAnswer.ts): the pieces of a request's params JSON, appended
 * under an unguessable token until the call that names it takes them.
 */
import { randomUUID } from 'node:crypto';
import { BridgeMethodError } from './errors';

export const MAX_UPLOAD_BYTES = 256 * 1024 * 1024;
const MAX_HELD = 4;

export class UploadStore {
  private readonly held = new Map<string, { pieces: string[]; bytes: number }>();

  constructor(private readonly maxBytes = MAX_UPLOAD_BYTES) {}

  /** Appends `text` to the upload `token` (a new upload without one); its token and bytes so far. */
  append(token: string | undefined, text: string): { token: string; bytes: number } {
    let entry = token === undefined ? undefined : this.held.get(token);
    if (token !== undefined && !entry) throw unknownUpload(token, '/token');
    const bytes = (entry?.bytes ?? 0) + Buffer.byteLength(text);
    if (bytes > this.maxBytes) {
      if (token !== undefined) this.held.delete(token);
      throw new BridgeMethodError(
        'payload_too_large',
        `The upload would be ${bytes} bytes; the bridge takes at most ${this.maxBytes} bytes in one upload.`,
        '/text',
      );
    }
    const key = token ?? randomUUID();
    if (!entry) {
      entry = { pieces: [], bytes: 0 };
      this.held.set(key, entry);
      for (const oldest of this.held.keys()) {
        if (this.held.size <= MAX_HELD) break;
        this.held.delete(oldest);
      }
    }
    entry.pieces.push(text);
    entry.bytes = bytes;
    return { token: key, bytes };
  }

  /** The whole text of upload `token`, which is let go. */
  take(token: string): string {
    const entry = this.held.get(token);
    if (!entry) throw unknownUpload(token, '/$bridgeUpload');
    this.held.delete(token);
    return entry.pieces.join('');
  }
}

function unknownUpload(token: string, path: string): BridgeMethodError {
  return new BridgeMethodError(
    'not_found',
    `No upload is held under token ${JSON.stringify(token.slice(0, 80))}: it was used by a call already, or newer uploads pushed it out. Upload the params again.`,
    path,
  );
}

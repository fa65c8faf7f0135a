/**
 * The dispatcher's side of pieced answers (see piecedAnswer.ts): the JSON of an answer over the bound, cut into
 * pieces of about ANSWER_PIECE_BYTES, held under an unguessable token until its last piece is read. At most
 * MAX_HELD answers are held; a newer one pushes the oldest out (its reader gets `not_found` and asks again).
 */
import { randomUUID } from 'node:crypto';
import { jsonTextPieces } from '../common/jsonTextPieces';
import { BridgeMethodError } from './errors';
import { PIECES_MARKER, type PiecedAnswer } from './piecedAnswer';

/** answers whose JSON is over this many bytes travel in pieces */
export const BRIDGE_ANSWER_BYTES = 1_000_000;
export const ANSWER_PIECE_BYTES = 512 * 1024;
const MAX_HELD = 8;

export class AnswerPieceStore {
  private readonly held = new Map<string, { pieces: string[]; read: Set<number> }>();

  /** The marker that stands for `json` (an answer's JSON text); its pieces are held until read. */
  hold(json: string): PiecedAnswer {
    const token = randomUUID();
    const pieces = jsonTextPieces(json, ANSWER_PIECE_BYTES);
    this.held.set(token, { pieces, read: new Set() });
    for (const oldest of this.held.keys()) {
      if (this.held.size <= MAX_HELD) break;
      this.held.delete(oldest);
    }
    return { [PIECES_MARKER]: { token, count: pieces.length, bytes: Buffer.byteLength(json) } };
  }

  /** Piece `index` of the answer held under `token`; the answer is let go once every piece was read. */
  piece(token: string, index: number): { text: string } {
    const entry = this.held.get(token);
    if (!entry) {
      throw new BridgeMethodError(
        'not_found',
        `No answer is held under token ${JSON.stringify(token)}: its pieces were all read, or newer large answers pushed it out. Ask the method again.`,
        '/token',
      );
    }
    if (index >= entry.pieces.length) {
      throw new BridgeMethodError(
        'invalid_params',
        `index ${index} is outside the answer: it has ${entry.pieces.length} pieces, 0 to ${entry.pieces.length - 1}.`,
        '/index',
      );
    }
    entry.read.add(index);
    if (entry.read.size === entry.pieces.length) this.held.delete(token);
    return { text: entry.pieces[index]! };
  }
}

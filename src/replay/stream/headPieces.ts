/**
 * A Recording's head (everything but turns and messages) is small but for its sessions' message keys, which run to
 * MBs for a long session (27,000 entries: 1.1 MB). A page carries a head over HEAD_PIECE_BYTES as pieces of its
 * JSON text instead, one a page before the turns; the pieces joined parse to the head.
 */
import { jsonTextPieces } from '../../common/jsonTextPieces';

export const HEAD_PIECE_BYTES = 256 * 1024;

/** The head's JSON in pieces when it is over HEAD_PIECE_BYTES, else none (it travels whole). */
export function headPieces(head: object): string[] {
  const text = JSON.stringify(head);
  return Buffer.byteLength(text) > HEAD_PIECE_BYTES ? jsonTextPieces(text, HEAD_PIECE_BYTES) : [];
}

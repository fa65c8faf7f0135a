/**
 * A Recording's head (everything but turns and messages) is small but for its sessions' message keys, which run to
 * MBs for a long session (27,000 entries: 1.1 MB). A page carries a head over HEAD_PIECE_BYTES as pieces of its
 * JSON text instead, one a page before the turns; the pieces joined parse to the head.
 */
export const HEAD_PIECE_BYTES = 256 * 1024;

/** The text in pieces whose JSON-string form stays about `bytes` (a piece never splits a surrogate pair). */
function piecesOf(text: string, bytes: number): string[] {
  const pieces: string[] = [];
  const step = 16 * 1024;
  let start = 0;
  while (start < text.length) {
    let end = start;
    while (end < text.length && Buffer.byteLength(JSON.stringify(text.slice(start, end))) < bytes) {
      end = Math.min(text.length, end + step);
      const code = text.charCodeAt(end - 1);
      if (end < text.length && code >= 0xd800 && code <= 0xdbff) end++;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/** The head's JSON in pieces when it is over HEAD_PIECE_BYTES, else none (it travels whole). */
export function headPieces(head: object): string[] {
  const text = JSON.stringify(head);
  return Buffer.byteLength(text) > HEAD_PIECE_BYTES ? piecesOf(text, HEAD_PIECE_BYTES) : [];
}

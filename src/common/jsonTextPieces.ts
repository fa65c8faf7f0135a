/**
 * A long text cut into pieces that each travel in one bridge message: a piece's JSON-string form stays under
 * `bytes` plus one 16 KiB step (of at most 6 bytes a character), and a piece never splits a surrogate pair, so the
 * pieces joined are the text.
 */
const STEP_CHARS = 16 * 1024;

/** UTF-8 bytes of `text` as a JSON string's content (escapes are per character, so step sizes add up). */
function jsonContentBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - 2;
}

export function jsonTextPieces(text: string, bytes: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = start;
    let size = 2;
    while (end < text.length && size < bytes) {
      let next = Math.min(text.length, end + STEP_CHARS);
      const code = text.charCodeAt(next - 1);
      if (next < text.length && code >= 0xd800 && code <= 0xdbff) next++;
      size += jsonContentBytes(text.slice(end, next));
      end = next;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * The client's side of answers over the bridge's message bound (src/bridge/piecedAnswer.ts): a pieced answer's
 * pieces are read with `bridge.piece` and parsed joined; any other answer is the result itself.
 */
import type { PiecedAnswer, PieceMethodName } from '../../../src/bridge';

export const PIECE_METHOD: PieceMethodName = 'bridge.piece';
const MARKER: keyof PiecedAnswer = '$bridgePieces';

function piecesOf(value: unknown): PiecedAnswer[typeof MARKER] | undefined {
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, MARKER)) return undefined;
  const pieces = (value as PiecedAnswer)[MARKER];
  const valid =
    pieces !== null &&
    typeof pieces === 'object' &&
    typeof pieces.token === 'string' &&
    Number.isSafeInteger(pieces.count) &&
    pieces.count > 0;
  return valid ? pieces : undefined;
}

/** The answer itself: `result`, or, for a pieced answer, its pieces read with `readPiece` and parsed joined. */
export async function resolvePiecedAnswer(
  result: unknown,
  readPiece: (token: string, index: number) => Promise<unknown>,
): Promise<unknown> {
  const pieces = piecesOf(result);
  if (!pieces) return result;
  const texts: string[] = [];
  for (let index = 0; index < pieces.count; index++) {
    const piece = (await readPiece(pieces.token, index)) as { text?: unknown } | null;
    if (typeof piece?.text !== 'string') throw new Error(`bridge.piece ${index} of ${pieces.count} carried no text`);
    texts.push(piece.text);
  }
  return JSON.parse(texts.join('')) as unknown;
}

/** A client's `call` over `send` (one request, its raw result): pieced answers come back whole. */
export function callReadingPieces(
  send: (method: string, params: unknown) => Promise<unknown>,
): (method: string, params: unknown) => Promise<unknown> {
  return async (method, params) =>
    resolvePiecedAnswer(await send(method, params), (token, index) => send(PIECE_METHOD, { token, index }));
}

/**
 * The client's side of messages over the bridge's bound (src/bridge/piecedAnswer.ts), both ways: a pieced answer's
 * pieces are read with `bridge.piece` and parsed joined (any other answer is the result itself); params whose JSON
 * could be over the bound are sent first with `bridge.upload` and the call names the upload.
 */
import type { PiecedAnswer, PieceMethodName, UploadedParams, UploadMethodName } from '../../../src/bridge';

export const PIECE_METHOD: PieceMethodName = 'bridge.piece';
export const UPLOAD_METHOD: UploadMethodName = 'bridge.upload';
const MARKER: keyof PiecedAnswer = '$bridgePieces';
const UPLOAD_MARKER: keyof UploadedParams = '$bridgeUpload';
/** params JSON longer than this may be over 1 MB (UTF-8 takes up to 3 bytes a UTF-16 unit): it is uploaded */
const UPLOAD_ABOVE_CHARS = 330_000;
/** characters of params JSON per upload piece (inside a JSON string: at most 3 bytes each, under 1 MB) */
const UPLOAD_PIECE_CHARS = 256 * 1024;

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

type Send = (method: string, params: unknown) => Promise<unknown>;

/** The upload of `json` (params' JSON text) in pieces: the params that name it. */
async function uploadParams(json: string, send: Send): Promise<UploadedParams> {
  let token: string | undefined;
  let start = 0;
  while (start < json.length) {
    let end = Math.min(json.length, start + UPLOAD_PIECE_CHARS);
    // a piece never ends inside a surrogate pair
    const code = json.charCodeAt(end - 1);
    if (end < json.length && code >= 0xd800 && code <= 0xdbff) end++;
    const text = json.slice(start, end);
    ({ token } = (await send(UPLOAD_METHOD, token === undefined ? { text } : { token, text })) as { token: string });
    start = end;
  }
  return { [UPLOAD_MARKER]: token! };
}

/**
 * A client's `call` over `send` (one request, its raw result): params whose JSON could be over the bound are
 * uploaded first, pieced answers come back whole. A call with small params is sent at once (in call order).
 */
export function callWithinBound(send: Send): (method: string, params: unknown) => Promise<unknown> {
  return (method, params) => {
    const json = params === undefined ? undefined : JSON.stringify(params);
    const sent =
      json !== undefined && json.length > UPLOAD_ABOVE_CHARS
        ? uploadParams(json, send).then((uploaded) => send(method, uploaded))
        : send(method, params);
    return sent.then((result) => resolvePiecedAnswer(result, (token, index) => send(PIECE_METHOD, { token, index })));
  };
}

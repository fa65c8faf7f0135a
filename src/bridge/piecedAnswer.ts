/**
 * Answers over the bridge's message bound (1 MB of JSON), on every transport: the dispatcher holds the answer's
 * JSON text and answers with a marker `{"$bridgePieces": {token, count, bytes}}` instead; the client reads the
 * pieces with the dispatcher's own method `bridge.piece {token, index}` → `{text}` (index 0 to count − 1) and
 * parses them joined (renderer/src/bridge/piecedAnswer.ts). Methods that page their answers (replay.get,
 * replay.stream, replay.export...) stay under the bound on their own; this catches the rest, e.g. a page whose one
 * turn carries a multi-MB tool result.
 */
export const PIECES_MARKER = '$bridgePieces';
export const PIECE_METHOD = 'bridge.piece';

export type PieceMethodName = typeof PIECE_METHOD;

export interface PiecedAnswer {
  [PIECES_MARKER]: { token: string; count: number; bytes: number };
}

/**
 * Requests over the bound, the other way: the client sends the params' JSON text with `bridge.upload {token?, text}`
 * → `{token, bytes}` (the first piece without a token opens an upload), then calls the method with the params
 * `{"$bridgeUpload": token}`; the dispatcher puts the params together before it validates them. A whole upload is at
 * most 256 MiB; at most 4 are held (a newer one pushes the oldest out).
 */
export const UPLOAD_MARKER = '$bridgeUpload';
export const UPLOAD_METHOD = 'bridge.upload';

export type UploadMethodName = typeof UPLOAD_METHOD;

export interface UploadedParams {
  [UPLOAD_MARKER]: string;
}

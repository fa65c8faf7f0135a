/**
 * `replay.export` within the bridge's message bound: an export whose text is under INLINE_RECORDING_BYTES (as a
 * JSON string) comes whole in `content`; a larger one is answered with `pieces` (its number of pieces) and no
 * content, and is read with `piece` from 0 to pieces − 1, each answer's `content` one piece of about
 * EXPORT_PIECE_BYTES; the pieces joined are the export. The text is rendered once for a reading and kept on the
 * replay's job; in live mode a new pass replaces the recording, and a piece of an export of the previous pass is
 * refused (the client starts again without `piece`).
 */
import type { Recording } from '../../contract/recording';
import { INLINE_RECORDING_BYTES, RecordingPageError } from './recordingPages';
import { jsonTextPieces } from '../../common/jsonTextPieces';

export const EXPORT_PIECE_BYTES = 512 * 1024;

export type ExportFormat = 'json' | 'html';

export interface ExportAnswer {
  format: ExportFormat;
  /** UTF-8 bytes of the whole export */
  bytes: number;
  /** the whole export, or with `piece` that piece of it */
  content?: string;
  /** the export is too large for one message: this many pieces, read with `piece` */
  pieces?: number;
}

/** An export's text as rendered for one recording, kept while it is read piece by piece. */
export interface RenderedExport {
  recording: Recording;
  format: ExportFormat;
  content: string;
  bytes: number;
  pieces?: string[];
}

function render(recording: Recording, format: ExportFormat, text: (format: ExportFormat) => string): RenderedExport {
  const content = text(format);
  const inline = Buffer.byteLength(JSON.stringify(content)) <= INLINE_RECORDING_BYTES;
  return {
    recording,
    format,
    content,
    bytes: Buffer.byteLength(content),
    ...(inline ? {} : { pieces: jsonTextPieces(content, EXPORT_PIECE_BYTES) }),
  };
}

/**
 * The answer to `replay.export {format, piece?}` for `recording`; `kept` is what the job keeps between pieces (the
 * returned value replaces it).
 */
export function exportAnswer(
  kept: RenderedExport | undefined,
  recording: Recording,
  format: ExportFormat,
  text: (format: ExportFormat) => string,
  piece?: number,
): { answer: ExportAnswer; kept: RenderedExport } {
  const current = kept && kept.recording === recording && kept.format === format ? kept : undefined;
  if (piece === undefined) {
    const rendered = current ?? render(recording, format, text);
    const answer: ExportAnswer = rendered.pieces
      ? { format, bytes: rendered.bytes, pieces: rendered.pieces.length }
      : { format, bytes: rendered.bytes, content: rendered.content };
    return { answer, kept: rendered };
  }
  if (!current?.pieces) {
    throw new RecordingPageError(
      current
        ? `this ${format} export fits in one message: ask without piece.`
        : `no ${format} export of this recording is being read (a new pass replaced it, or it was never asked for): ask without piece first, then read its pieces.`,
      '/piece',
    );
  }
  if (!Number.isSafeInteger(piece) || piece < 0 || piece >= current.pieces.length) {
    throw new RecordingPageError(
      `piece ${piece} is outside the export: it has ${current.pieces.length} pieces, 0 to ${current.pieces.length - 1}.`,
      '/piece',
    );
  }
  return {
    answer: { format, bytes: current.bytes, pieces: current.pieces.length, content: current.pieces[piece]! },
    kept: current,
  };
}

/** Reads `replay.export` over a dispatcher as the app does (whole, or its pieces joined), noting each answer's wire size. */
import type { createBridgeDispatcher } from '../../../src/bridge';

type Dispatcher = Pick<ReturnType<typeof createBridgeDispatcher>, 'call'>;

export interface ExportRead {
  text: string;
  /** the first answer (whole content, or the number of pieces) */
  first: { format: string; bytes: number; content?: string; pieces?: number };
  /** JSON bytes of every answer as it goes on the wire */
  sizes: number[];
}

export async function readExport(d: Dispatcher, replayId: string, format: 'json' | 'html'): Promise<ExportRead> {
  const sizes: number[] = [];
  const ask = async (params: Record<string, unknown>) => {
    const outcome = await d.call('replay.export', { replayId, format, ...params });
    sizes.push(Buffer.byteLength(JSON.stringify({ id: 1, ...outcome })));
    if (!outcome.ok) throw new Error(`replay.export: ${outcome.error.message}`);
    return outcome.result as ExportRead['first'];
  };
  const first = await ask({});
  if (first.pieces === undefined) return { text: first.content ?? '', first, sizes };
  const pieces: string[] = [];
  for (let piece = 0; piece < first.pieces; piece++) pieces.push((await ask({ piece })).content ?? '');
  return { text: pieces.join(''), first, sizes };
}

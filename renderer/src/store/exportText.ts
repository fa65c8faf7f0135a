/**
 * A replay's export as `replay.export` gives it: whole in `content` when it fits in one bridge message, else
 * `pieces` read with `piece` from 0 (each under the bridge's bound) and joined.
 */
import type { InspectorApi } from '../../../src/bridge';

export async function readExportText(api: InspectorApi, replayId: string, format: 'json' | 'html'): Promise<string> {
  const first = await api.call('replay.export', { replayId, format });
  if (first.pieces === undefined) return first.content ?? '';
  const pieces: string[] = [];
  for (let piece = 0; piece < first.pieces; piece++) {
    const answer = await api.call('replay.export', { replayId, format, piece });
    pieces.push(answer.content ?? '');
  }
  return pieces.join('');
}

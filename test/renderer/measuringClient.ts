/**
 * An InspectorClient over the real bridge handler table (main/handlers.ts) that measures every request and answer as
 * it would go on the wire.
 */
import { createHandlers } from '../../main/handlers';
import { createBridgeDispatcher } from '../../src/bridge';
import { callWithinBound } from '../../renderer/src/bridge/piecedAnswer';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import type { InspectorClient } from '../../renderer/src/bridge/InspectorClient';

interface Sized {
  method: string;
  bytes: number;
}

export function measuringClient(): { client: InspectorClient; answers: Sized[]; requests: Sized[] } {
  const dispatcher = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }));
  const answers: Sized[] = [];
  const requests: Sized[] = [];
  const client = {
    transport: 'websocket',
    // the app's clients keep requests and answers under the bound (renderer/src/bridge/piecedAnswer.ts)
    call: callWithinBound(async (method, params) => {
      requests.push({ method, bytes: Buffer.byteLength(JSON.stringify({ id: 1, method, params })) });
      const outcome = await dispatcher.call(method, params);
      answers.push({ method, bytes: Buffer.byteLength(JSON.stringify({ id: 1, ...outcome })) });
      if (!outcome.ok) throw new BridgeCallError(outcome.error);
      return outcome.result;
    }) as InspectorClient['call'],
    onEvent: () => () => {},
    connectionState: () => 'connected',
    onConnectionChange: () => () => {},
    close() {},
  } as InspectorClient;
  return { client, answers, requests };
}

/** Starts a legacy replay of `sessionPath` through `client` and waits until it is no longer running; its id. */
export async function replayToEnd(client: InspectorClient, sessionPath: string, window = 2_000_000): Promise<string> {
  const { replayId } = await client.call('replay.start', { sessionPath, lanes: ['legacy'], window });
  while ((await client.call('replay.get', { replayId })).status === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return replayId;
}

/** A finished replay's JSON export as the client gets it (whole: an answer over 1 MB comes in bridge.piece pieces). */
export async function exportedJson(client: InspectorClient, replayId: string): Promise<string> {
  return (await client.call('replay.export', { replayId, format: 'json' })).content ?? '';
}

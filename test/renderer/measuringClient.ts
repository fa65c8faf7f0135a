/** An InspectorClient over the real bridge handler table (main/handlers.ts) that measures every answer as it would go on the wire. */
import { createHandlers } from '../../main/handlers';
import { createBridgeDispatcher } from '../../src/bridge';
import { callReadingPieces } from '../../renderer/src/bridge/piecedAnswer';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import type { InspectorClient } from '../../renderer/src/bridge/InspectorClient';

export function measuringClient(): { client: InspectorClient; answers: { method: string; bytes: number }[] } {
  const dispatcher = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }));
  const answers: { method: string; bytes: number }[] = [];
  const client = {
    transport: 'websocket',
    // the app's clients read answers over the bound in pieces (renderer/src/bridge/piecedAnswer.ts)
    call: callReadingPieces(async (method, params) => {
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
  return { client, answers };
}

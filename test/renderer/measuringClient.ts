/** An InspectorClient over the real bridge handler table (main/handlers.ts) that measures every answer as it would go on the wire. */
import { createHandlers } from '../../main/handlers';
import { createBridgeDispatcher, type MethodName, type RequestOf, type ResponseOf } from '../../src/bridge';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import type { InspectorClient } from '../../renderer/src/bridge/InspectorClient';

export function measuringClient(): { client: InspectorClient; answers: { method: string; bytes: number }[] } {
  const dispatcher = createBridgeDispatcher(createHandlers({ shell: 'browser', runtimeHost: 'node' }));
  const answers: { method: string; bytes: number }[] = [];
  const client = {
    transport: 'websocket',
    async call<M extends MethodName>(method: M, params: RequestOf<M>): Promise<ResponseOf<M>> {
      const outcome = await dispatcher.call(method, params);
      answers.push({ method, bytes: Buffer.byteLength(JSON.stringify({ id: 1, ...outcome })) });
      if (!outcome.ok) throw new BridgeCallError(outcome.error);
      return outcome.result as ResponseOf<M>;
    },
    onEvent: () => () => {},
    connectionState: () => 'connected',
    onConnectionChange: () => () => {},
    close() {},
  } as InspectorClient;
  return { client, answers };
}

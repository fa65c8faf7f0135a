import type { BridgeEvent, MethodName, PreloadBridgeApi, RequestOf, ResponseOf } from '../../../src/bridge';
import { BridgeCallError } from './BridgeCallError';
import type { InspectorClient } from './InspectorClient';

/** Electron: the bridge exposed by main/preload.ts as `window.contextscope`. Always connected. */
export function createPreloadClient(bridge: PreloadBridgeApi): InspectorClient {
  return {
    transport: 'preload',
    async call<M extends MethodName>(method: M, params: RequestOf<M>): Promise<ResponseOf<M>> {
      const outcome = await bridge.invoke(method, params);
      if (!outcome.ok) throw new BridgeCallError(outcome.error);
      return outcome.result as ResponseOf<M>;
    },
    onEvent(listener: (event: BridgeEvent) => void) {
      return bridge.onEvent(listener);
    },
    connectionState: () => 'connected',
    onConnectionChange: () => () => {},
    close: () => {},
  };
}

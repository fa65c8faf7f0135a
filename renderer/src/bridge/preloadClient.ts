import type { BridgeEvent, PreloadBridgeApi } from '../../../src/bridge';
import { callWithinBound } from './piecedAnswer';
import { BridgeCallError } from './BridgeCallError';
import type { InspectorClient } from './InspectorClient';

/** Electron: the bridge exposed by main/preload.ts as `window.contextscope`. Always connected. */
export function createPreloadClient(bridge: PreloadBridgeApi): InspectorClient {
  return {
    transport: 'preload',
    call: callWithinBound(async (method, params) => {
      const outcome = await bridge.invoke(method, params);
      if (!outcome.ok) throw new BridgeCallError(outcome.error);
      return outcome.result;
    }) as InspectorClient['call'],
    onEvent(listener: (event: BridgeEvent) => void) {
      return bridge.onEvent(listener);
    },
    connectionState: () => 'connected',
    onConnectionChange: () => () => {},
    close: () => {},
  };
}

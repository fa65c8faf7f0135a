import type { BridgeEvent, MethodName, RequestOf, ResponseOf } from '../../src/bridge';
import { BridgeCallError } from '../../renderer/src/bridge/BridgeCallError';
import type { ConnectionState, InspectorClient, TransportKind } from '../../renderer/src/bridge/InspectorClient';

type Responder = { [M in MethodName]?: (params: RequestOf<M>) => ResponseOf<M> | Promise<ResponseOf<M>> };

/** An in-memory InspectorClient for renderer tests: answers from `responders`, records calls. */
export function createFakeInspectorClient(responders: Responder, transport: TransportKind = 'websocket') {
  let state: ConnectionState = 'connected';
  const stateListeners = new Set<(state: ConnectionState, reason?: string) => void>();
  const eventListeners = new Set<(event: BridgeEvent) => void>();
  const calls: string[] = [];
  const requests: { method: string; params: unknown }[] = [];
  const client: InspectorClient = {
    transport,
    async call<M extends MethodName>(method: M, params: RequestOf<M>): Promise<ResponseOf<M>> {
      calls.push(method);
      requests.push({ method, params });
      const responder = responders[method] as ((params: RequestOf<M>) => ResponseOf<M>) | undefined;
      if (!responder)
        throw new BridgeCallError({ code: 'unknown_method', method, path: '', message: `no fake for ${method}` });
      return responder(params);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    connectionState: () => state,
    onConnectionChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {},
  };
  return {
    client,
    calls,
    /** every call with its params, in order */
    requests,
    /** pushes an event to the subscribed listeners (as the runtime would) */
    emit(event: BridgeEvent) {
      for (const listener of eventListeners) listener(event);
    },
    setState(next: ConnectionState, reason?: string) {
      state = next;
      for (const listener of stateListeners) listener(next, reason);
    },
  };
}

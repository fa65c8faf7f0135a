import type { BridgeEvent, WireResponse } from '../../../src/bridge';
import { callWithinBound } from './piecedAnswer';
import { BridgeCallError } from './BridgeCallError';
import type { ConnectionState, InspectorClient } from './InspectorClient';

/** The subset of the browser WebSocket this client uses (so tests can pass a fake). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  addEventListener(
    type: 'open' | 'message' | 'close' | 'error',
    listener: (event: { data?: unknown; code?: number }) => void,
  ): void;
}

export type WebSocketFactory = (url: string) => WebSocketLike;

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

function disconnectedError(method: string, reason: string): BridgeCallError {
  return new BridgeCallError({ code: 'disconnected', method, path: '', message: reason });
}

/**
 * Browser mode: JSON messages `{id, method, params}` → `{id, ok, result|error}` over one WebSocket, events pushed
 * as `{type: 'event', topic, payload}`. Calls made before the socket opens are queued.
 */
export function createWebSocketClient(
  url: string,
  connect: WebSocketFactory = (target) => new WebSocket(target),
): InspectorClient {
  let state: ConnectionState = 'connecting';
  let nextId = 1;
  const pending = new Map<number, Pending>();
  const queued: string[] = [];
  const eventListeners = new Set<(event: BridgeEvent) => void>();
  const stateListeners = new Set<(state: ConnectionState, reason?: string) => void>();

  function setState(next: ConnectionState, reason?: string): void {
    if (state === next) return;
    state = next;
    for (const listener of stateListeners) listener(next, reason);
  }

  const socket = connect(url);
  socket.addEventListener('open', () => {
    setState('connected');
    for (const message of queued.splice(0)) socket.send(message);
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    let message: (WireResponse & { type?: undefined }) | BridgeEvent;
    try {
      message = JSON.parse(event.data) as typeof message;
    } catch {
      return;
    }
    if (message.type === 'event') {
      for (const listener of eventListeners) listener(message);
      return;
    }
    if (typeof message.id !== 'number') return;
    const entry = pending.get(message.id);
    if (!entry) return;
    pending.delete(message.id);
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new BridgeCallError(message.error));
  });
  socket.addEventListener('close', (event) => {
    const reason =
      state === 'connecting'
        ? 'Could not connect to the ContextScope bridge (the token in the page URL may be stale). Open the URL printed by `contextscope serve`.'
        : `The connection to the ContextScope runtime closed (code ${event.code ?? 'unknown'}). Restart \`contextscope serve\` and open the new URL.`;
    setState('disconnected', reason);
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.reject(disconnectedError(entry.method, reason));
    }
    queued.length = 0;
  });

  const send = (method: string, params: unknown): Promise<unknown> => {
    if (state === 'disconnected') {
      return Promise.reject(disconnectedError(method, 'The ContextScope bridge is disconnected.'));
    }
    const id = nextId++;
    const message = JSON.stringify({ id, method, params });
    return new Promise<unknown>((resolve, reject) => {
      pending.set(id, { method, resolve, reject });
      if (state === 'connected') socket.send(message);
      else queued.push(message);
    });
  };

  return {
    transport: 'websocket',
    call: callWithinBound(send) as InspectorClient['call'],
    onEvent(listener) {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    connectionState: () => state,
    onConnectionChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close: () => socket.close(),
  };
}

import type { PreloadBridgeApi } from '../../../src/bridge';
import type { InspectorClient } from './InspectorClient';
import { createPreloadClient } from './preloadClient';
import { createWebSocketClient, type WebSocketFactory } from './webSocketClient';

export interface ClientHost {
  contextscope?: PreloadBridgeApi;
  location: { protocol: string; host: string; search: string };
}

export type ClientChoice = { ok: true; client: InspectorClient } | { ok: false; reason: string };

/** `ws://<host>/bridge?token=<token>` from the page URL (`http://127.0.0.1:<port>/?token=<token>`), or null. */
export function bridgeUrlFromLocation(location: ClientHost['location']): string | null {
  const token = new URLSearchParams(location.search).get('token');
  if (!token) return null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/bridge?token=${encodeURIComponent(token)}`;
}

/** The preload bridge when Electron provides one, else the WebSocket bridge of browser mode. */
export function createInspectorClient(host: ClientHost, connect?: WebSocketFactory): ClientChoice {
  if (host.contextscope) return { ok: true, client: createPreloadClient(host.contextscope) };
  const url = bridgeUrlFromLocation(host.location);
  if (!url) {
    return {
      ok: false,
      reason:
        'This page has no bridge token in its URL. Open the full URL printed by `contextscope serve` (it ends in ?token=…).',
    };
  }
  return { ok: true, client: createWebSocketClient(url, connect) };
}

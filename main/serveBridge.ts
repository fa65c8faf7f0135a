/**
 * Browser mode's WebSocket side: an upgrade reaches the bridge only with an allowed Host and Origin, the bridge
 * path and this launch's token; anything else is refused with a plain HTTP answer saying why.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { TOKEN_QUERY_PARAM, WEBSOCKET_BRIDGE_PATH, type BridgeDispatcher } from '../src/bridge';
import { isAllowedHost, isAllowedOrigin, tokensMatch } from './requestGuards';
import { LOOPBACK_HOST } from './serveHttp';

export interface BridgeEndpoint {
  port: number;
  token: string;
  dispatcher: BridgeDispatcher;
  wss: WebSocketServer;
  /** the open bridge connections (closed with the server) */
  sockets: Set<WebSocket>;
  log(line: string): void;
}

function refuse(endpoint: BridgeEndpoint, socket: Duplex, status: number, reason: string): void {
  endpoint.log(`bridge: refused connection (${status}): ${reason}`);
  const statusText = status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden';
  socket.end(
    `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
    () => socket.destroy(),
  );
}

function toUint8Array(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

/** Every message of the connection goes to the dispatcher; its answers go back while the socket is open. */
function serveBridgeSocket(endpoint: BridgeEndpoint, ws: WebSocket): void {
  endpoint.sockets.add(ws);
  ws.on('close', () => endpoint.sockets.delete(ws));
  ws.on('error', (error) => endpoint.log(`bridge: socket error: ${error.message}`));
  ws.on('message', (data, isBinary) => {
    const raw =
      isBinary || Array.isArray(data) || data instanceof ArrayBuffer ? toUint8Array(data) : data.toString('utf8');
    void endpoint.dispatcher.handleMessage(raw, (message) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    });
  });
}

/** The server's `upgrade` handler: checks the request, then hands the socket to the bridge. */
export function handleBridgeUpgrade(
  endpoint: BridgeEndpoint,
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
): void {
  const { port } = endpoint;
  socket.on('error', () => socket.destroy());
  const url = new URL(req.url ?? '/', `http://${LOOPBACK_HOST}:${port}`);
  if (!isAllowedHost(req.headers.host, port)) return refuse(endpoint, socket, 403, 'Host header is not this server.');
  if (!isAllowedOrigin(req.headers.origin, port))
    return refuse(endpoint, socket, 403, `Origin ${req.headers.origin} may not use the bridge.`);
  if (url.pathname !== WEBSOCKET_BRIDGE_PATH)
    return refuse(endpoint, socket, 404, `No WebSocket endpoint at ${url.pathname}.`);
  if (!tokensMatch(endpoint.token, url.searchParams.get(TOKEN_QUERY_PARAM))) {
    return refuse(
      endpoint,
      socket,
      401,
      'Missing or wrong bridge token. Open the URL printed by `contextscope serve`.',
    );
  }
  endpoint.wss.handleUpgrade(req, socket, head, (ws) => serveBridgeSocket(endpoint, ws));
}

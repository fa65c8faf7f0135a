/**
 * Browser mode: serves the built renderer and the bridge over HTTP + WebSocket on 127.0.0.1 only.
 * Every bridge connection must carry this launch's secret token; Host and Origin are checked on every request
 * (DNS-rebinding protection); static files never leave the renderer folder.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import {
  createBridgeDispatcher,
  DEFAULT_MAX_REQUEST_BYTES,
  TOKEN_QUERY_PARAM,
  type BridgeDispatcher,
  type BridgeHandlers,
} from '../src/bridge';
import { errorMessage, errorStack } from '../src/common/errorText';
import { handleBridgeUpgrade, type BridgeEndpoint } from './serveBridge';
import { LOOPBACK_HOST, serveHttp } from './serveHttp';

export { LOOPBACK_HOST } from './serveHttp';

export interface ServerOptions {
  /** TCP port; 0 or omitted = a random free port. */
  port?: number;
  /** Only loopback is supported; the option exists so callers state it. */
  host?: typeof LOOPBACK_HOST;
  /** Folder of the built renderer (contains index.html). */
  rendererDir: string;
  /** The bridge table (main/handlers.ts). Ignored when `dispatcher` is given. */
  handlers?: BridgeHandlers;
  /** A ready dispatcher (tests use one over their own method specs). */
  dispatcher?: BridgeDispatcher;
  /** Per-launch secret; generated when omitted. */
  token?: string;
  /** Where to report handler exceptions and refused connections (default: nowhere). */
  log?: (line: string) => void;
}

export interface RunningServer {
  /** The URL to open, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

// The ws frame limit sits a little above the bridge's own cap, so an oversized request still gets a
// structured `payload_too_large` answer; anything far beyond is cut off by ws (close code 1009).
const WS_MAX_PAYLOAD = DEFAULT_MAX_REQUEST_BYTES + 1024 * 1024;

function dispatcherOf(options: ServerOptions, log: (line: string) => void): BridgeDispatcher {
  const dispatcher =
    options.dispatcher ??
    (options.handlers
      ? createBridgeDispatcher(options.handlers, {
          onHandlerError: (error, method) => log(`bridge: ${method} threw: ${errorStack(error)}`),
        })
      : undefined);
  if (!dispatcher) throw new Error('startServer needs `handlers` (main/handlers.ts) or a `dispatcher`.');
  return dispatcher;
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOOPBACK_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? LOOPBACK_HOST;
  if (host !== LOOPBACK_HOST) {
    throw new Error(`Browser mode only binds to ${LOOPBACK_HOST}; "${String(host)}" was requested.`);
  }
  const log = options.log ?? (() => {});
  const token = options.token ?? randomBytes(32).toString('hex');
  // the port is known once listening; requests only arrive after that
  const bridge: BridgeEndpoint = {
    port: 0,
    token,
    dispatcher: dispatcherOf(options, log),
    wss: new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD }),
    sockets: new Set(),
    log,
  };

  const server = createServer((req, res) => {
    void serveHttp(req, res, bridge.port, options.rendererDir).catch((error: unknown) => {
      log(`http: ${req.method} ${req.url} failed: ${errorMessage(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal error');
    });
  });
  server.on('upgrade', (req, socket, head) => handleBridgeUpgrade(bridge, req, socket, head));

  await listen(server, options.port ?? 0);
  const port = (server.address() as AddressInfo).port;
  bridge.port = port;
  const origin = `http://${LOOPBACK_HOST}:${port}`;

  return {
    url: `${origin}/?${TOKEN_QUERY_PARAM}=${token}`,
    origin,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of bridge.sockets) ws.terminate();
        bridge.wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

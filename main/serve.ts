/**
 * Browser mode: serves the built renderer and the bridge over HTTP + WebSocket on 127.0.0.1 only.
 * Every bridge connection must carry this launch's secret token; Host and Origin are checked on every request
 * (DNS-rebinding protection); static files never leave the renderer folder.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  createBridgeDispatcher,
  DEFAULT_MAX_REQUEST_BYTES,
  TOKEN_QUERY_PARAM,
  WEBSOCKET_BRIDGE_PATH,
  type BridgeDispatcher,
  type BridgeHandlers,
} from '../src/bridge';
import { buildContentSecurityPolicy } from './contentSecurityPolicy';
import { isAllowedHost, isAllowedOrigin, tokensMatch } from './requestGuards';
import { resolveStaticFile } from './staticFiles';
import { errorMessage, errorStack } from '../src/common/errorText';

export const LOOPBACK_HOST = '127.0.0.1';

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

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? LOOPBACK_HOST;
  if (host !== LOOPBACK_HOST) {
    throw new Error(`Browser mode only binds to ${LOOPBACK_HOST}; "${String(host)}" was requested.`);
  }
  const log = options.log ?? (() => {});
  const token = options.token ?? randomBytes(32).toString('hex');
  const dispatcher =
    options.dispatcher ??
    (options.handlers
      ? createBridgeDispatcher(options.handlers, {
          onHandlerError: (error, method) => log(`bridge: ${method} threw: ${errorStack(error)}`),
        })
      : undefined);
  if (!dispatcher) throw new Error('startServer needs `handlers` (main/handlers.ts) or a `dispatcher`.');

  let port = 0;
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_PAYLOAD });

  const server = createServer((req, res) => {
    void serveHttp(req, res).catch((error: unknown) => {
      log(`http: ${req.method} ${req.url} failed: ${errorMessage(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal error');
    });
  });

  function securityHeaders(): Record<string, string> {
    return {
      'Content-Security-Policy': buildContentSecurityPolicy({
        connectSources: [`ws://${LOOPBACK_HOST}:${port}`, `ws://localhost:${port}`],
      }),
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
    };
  }

  function plain(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, {
      ...securityHeaders(),
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'no-store',
    });
    res.end(text);
  }

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!isAllowedHost(req.headers.host, port)) {
      plain(res, 403, `Forbidden: Host must be ${LOOPBACK_HOST}:${port} or localhost:${port}.`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      plain(res, 405, 'Method not allowed.');
      return;
    }
    const rawPath = (req.url ?? '/').split('?')[0]!;
    if (rawPath === '/favicon.ico') {
      res.writeHead(204, securityHeaders());
      res.end();
      return;
    }
    const file = await resolveStaticFile(options.rendererDir, rawPath);
    if (!file) {
      plain(res, 404, 'Not found.');
      return;
    }
    res.writeHead(200, {
      ...securityHeaders(),
      'Content-Type': file.contentType,
      'Content-Length': String(file.size),
      'Cache-Control': file.contentType.startsWith('text/html') ? 'no-store' : 'no-cache',
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    createReadStream(file.filePath).pipe(res);
  }

  function refuse(socket: Duplex, status: number, reason: string): void {
    log(`bridge: refused connection (${status}): ${reason}`);
    const statusText = status === 401 ? 'Unauthorized' : status === 404 ? 'Not Found' : 'Forbidden';
    socket.end(
      `HTTP/1.1 ${status} ${statusText}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`,
      () => socket.destroy(),
    );
  }

  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', `http://${LOOPBACK_HOST}:${port}`);
    if (!isAllowedHost(req.headers.host, port)) return refuse(socket, 403, 'Host header is not this server.');
    if (!isAllowedOrigin(req.headers.origin, port))
      return refuse(socket, 403, `Origin ${req.headers.origin} may not use the bridge.`);
    if (url.pathname !== WEBSOCKET_BRIDGE_PATH) return refuse(socket, 404, `No WebSocket endpoint at ${url.pathname}.`);
    if (!tokensMatch(token, url.searchParams.get(TOKEN_QUERY_PARAM))) {
      return refuse(socket, 401, 'Missing or wrong bridge token. Open the URL printed by `contextscope serve`.');
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', (error) => log(`bridge: socket error: ${error.message}`));
      ws.on('message', (data, isBinary) => {
        const raw =
          isBinary || Array.isArray(data) || data instanceof ArrayBuffer ? toUint8Array(data) : data.toString('utf8');
        void dispatcher.handleMessage(raw, (message) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
        });
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${LOOPBACK_HOST}:${port}`;

  return {
    url: `${origin}/?${TOKEN_QUERY_PARAM}=${token}`,
    origin,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of sockets) ws.terminate();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function toUint8Array(data: Buffer | ArrayBuffer | Buffer[]): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

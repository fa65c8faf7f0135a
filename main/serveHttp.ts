/**
 * Browser mode's HTTP side: the built renderer's static files (GET/HEAD only, Host checked against DNS rebinding)
 * with the security headers every response carries.
 */
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildContentSecurityPolicy } from './contentSecurityPolicy';
import { isAllowedHost } from './requestGuards';
import { resolveStaticFile } from './staticFiles';

export const LOOPBACK_HOST = '127.0.0.1';

export function securityHeaders(port: number): Record<string, string> {
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

function plain(res: ServerResponse, port: number, status: number, text: string): void {
  res.writeHead(status, {
    ...securityHeaders(port),
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

/** Answers one HTTP request of the server listening on `port` from the files in `rendererDir`. */
export async function serveHttp(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
  rendererDir: string,
): Promise<void> {
  if (!isAllowedHost(req.headers.host, port)) {
    plain(res, port, 403, `Forbidden: Host must be ${LOOPBACK_HOST}:${port} or localhost:${port}.`);
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    plain(res, port, 405, 'Method not allowed.');
    return;
  }
  const rawPath = (req.url ?? '/').split('?')[0]!;
  if (rawPath === '/favicon.ico') {
    res.writeHead(204, securityHeaders(port));
    res.end();
    return;
  }
  const file = await resolveStaticFile(rendererDir, rawPath);
  if (!file) {
    plain(res, port, 404, 'Not found.');
    return;
  }
  res.writeHead(200, {
    ...securityHeaders(port),
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

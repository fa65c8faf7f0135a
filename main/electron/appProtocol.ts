import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { resolveStaticFile } from '../staticFiles';
import { APP_HOST, APP_SCHEME } from './security';

/** Must run before `app.whenReady()`: makes app:// a standard, secure origin (so 'self' and fetch work). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** app://contextscope/<path> → a file of the built renderer, with the CSP header; anything else → 404. */
export async function respondWithAppFile(requestUrl: string, rendererDir: string, policy: string): Promise<Response> {
  const notFound = () =>
    new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return notFound();
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return notFound();
  const file = await resolveStaticFile(rendererDir, url.pathname);
  if (!file) return notFound();
  const body = await readFile(file.filePath);
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': file.contentType,
      'Content-Security-Policy': policy,
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

export function serveAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string, policy: string): void {
  protocol.handle(APP_SCHEME, (request) => respondWithAppFile(request.url, rendererDir, policy));
}

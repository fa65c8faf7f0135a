/**
 * electron-vite's dev server URL (`ELECTRON_RENDERER_URL`) is honoured only when asked for explicitly
 * (`CONTEXTSCOPE_DEV_RENDERER=1`), never in a packaged app, and only for an http(s) server on this machine: an
 * inherited variable must not make the app load — and trust with the bridge — a page from elsewhere.
 */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export const DEV_RENDERER_FLAG = 'CONTEXTSCOPE_DEV_RENDERER';

export function devRendererUrl(env: NodeJS.ProcessEnv, isPackaged: boolean): string | undefined {
  const raw = env.ELECTRON_RENDERER_URL;
  if (isPackaged || !raw || env[DEV_RENDERER_FLAG] !== '1') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !LOCAL_HOSTS.has(url.hostname)) return undefined;
  if (url.username || url.password) return undefined;
  return url.href;
}

import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

export interface StaticFile {
  filePath: string;
  contentType: string;
  size: number;
}

/**
 * Maps a URL path to a regular file inside `rootDir`, or null. `/` is `index.html`. Anything that would leave
 * the folder — `..` segments (plain or percent-encoded), backslashes, NUL, absolute paths, symlinks pointing
 * outside — resolves to null, which the caller answers with 404.
 */
export async function resolveStaticFile(rootDir: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  if (!decoded.startsWith('/')) return null;
  const segments = decoded.split('/');
  if (segments.some((segment) => segment === '..')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.slice(1);
  const root = path.resolve(rootDir);
  const candidate = path.resolve(root, relative);
  if (!isInside(root, candidate)) return null;
  try {
    const [realRoot, realCandidate] = await Promise.all([realpath(root), realpath(candidate)]);
    if (!isInside(realRoot, realCandidate)) return null;
    const info = await stat(realCandidate);
    if (!info.isFile()) return null;
    return { filePath: realCandidate, contentType: contentTypeFor(realCandidate), size: info.size };
  } catch {
    return null;
  }
}

function isInside(root: string, candidate: string): boolean {
  return candidate !== root && candidate.startsWith(root + path.sep);
}

import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * DNS-rebinding protection: a page on evil.example that resolves to 127.0.0.1 still sends its own name in Host.
 * Only the loopback names this server was started on are accepted, with the exact port.
 */
export function isAllowedHost(hostHeader: string | undefined, port: number): boolean {
  if (hostHeader === undefined) return false;
  const host = hostHeader.toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** Origin (when the client sends one) must be this server's own page, not another site or port. */
export function isAllowedOrigin(originHeader: string | undefined, port: number): boolean {
  if (originHeader === undefined) return true;
  const origin = originHeader.toLowerCase();
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`;
}

/** Constant-time comparison (hashing first makes the lengths equal, so the length does not leak either). */
export function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

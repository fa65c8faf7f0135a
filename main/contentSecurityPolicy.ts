/**
 * The app's Content-Security-Policy. The renderer loads only its own scripts and styles, no frames, no plugins,
 * and talks only to its own origin (plus, in browser mode, the bridge WebSocket of this launch).
 */
export interface CspOptions {
  /** Extra connect-src sources, e.g. `ws://127.0.0.1:4321`. */
  connectSources?: readonly string[];
}

export function buildContentSecurityPolicy(options: CspOptions = {}): string {
  const connect = ["'self'", ...(options.connectSources ?? [])].join(' ');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

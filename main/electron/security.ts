import type { Session, WebContents, WebPreferences } from 'electron';

/** The renderer is served from this privileged custom scheme (see appProtocol.ts), never from file://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'contextscope';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

/** The only webPreferences the app window ever gets. Each line is a security decision; tests pin every one. */
export function secureWebPreferences(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
  };
}

export interface TrustedOrigin {
  /** With the colon, as URL.protocol gives it: 'app:' or 'http:'. */
  protocol: string;
  host: string;
}

export const APP_TRUSTED_ORIGIN: TrustedOrigin = { protocol: `${APP_SCHEME}:`, host: APP_HOST };

/**
 * True only for a frame showing the app's own page. (URL.origin is "null" for custom schemes, so protocol and host
 * are compared instead.) A missing frame — destroyed or navigated away mid-call — is never trusted.
 */
export function isTrustedSenderUrl(url: string | undefined | null, trusted: readonly TrustedOrigin[]): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return trusted.some((origin) => origin.protocol === parsed.protocol && origin.host === parsed.host);
}

/** Applied to every WebContents the app creates: no navigation, no popups, no webviews. */
export function hardenWebContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
}

/**
 * The app needs no camera, microphone, screen capture, notifications, geolocation, HID/serial/USB devices...:
 * every permission request and check, every display-media (getDisplayMedia) request and every device grant says no.
 */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
  session.setDevicePermissionHandler(() => false);
}

/** Adds the app's CSP to every response the session receives, replacing any CSP the response carried. */
export function enforceContentSecurityPolicy(session: Session, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    const headers: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [policy];
    callback({ responseHeaders: headers });
  });
}

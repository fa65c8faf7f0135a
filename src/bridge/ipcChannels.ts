/**
 * IPC channel names of the Electron shell. Kept free of imports: the sandboxed preload bundles this file and
 * must not pull ajv or typebox in.
 */
export const IPC_METHOD_CHANNEL_PREFIX = 'bridge:call:';
export const IPC_EVENT_CHANNEL = 'bridge:event';

/** Method names are `<namespace>.<name>` in lower camel case; anything else is never sent over IPC. */
export const METHOD_NAME_PATTERN = /^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$/;

export function ipcChannelForMethod(method: string): string {
  return IPC_METHOD_CHANNEL_PREFIX + method;
}

import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import {
  bridgeError,
  IPC_EVENT_CHANNEL,
  ipcChannelForMethod,
  type BridgeDispatcher,
  type BridgeOutcome,
} from '../../src/bridge';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;

/**
 * One ipcMain handler per bridge method. Each first checks that the calling frame is the app's own page, then
 * hands the params to the dispatcher (which validates them before any handler runs). Events a handler emits go
 * back to the calling WebContents only.
 */
export function registerBridgeIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  dispatcher: BridgeDispatcher,
  isTrustedSender: SenderCheck,
  log: (line: string) => void = () => {},
): void {
  for (const method of dispatcher.methodNames) {
    ipcMain.handle(ipcChannelForMethod(method), async (event, params: unknown): Promise<BridgeOutcome> => {
      if (!isTrustedSender(event)) {
        log(`bridge: refused ${method} from ${event.senderFrame?.url ?? 'a destroyed frame'}`);
        return {
          ok: false,
          error: bridgeError(
            'forbidden',
            method,
            '',
            `${method} was called from a frame that is not the ContextScope app; the bridge only answers the app's own page.`,
          ),
        };
      }
      return dispatcher.call(method, params, (bridgeEvent) => {
        if (!event.sender.isDestroyed()) event.sender.send(IPC_EVENT_CHANNEL, bridgeEvent);
      });
    });
  }
}

/**
 * Preload (built as CJS, out/preload/preload.cjs, so the window can keep `sandbox: true`). Exposes exactly the
 * InspectorApi transport as `window.contextscope`: invoke a bridge method, listen to bridge events. No other IPC
 * channel is reachable from the page. Imports only the dependency-free channel constants from src/bridge.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { BridgeEvent, BridgeOutcome, PreloadBridgeApi } from '../src/bridge';
import { IPC_EVENT_CHANNEL, ipcChannelForMethod, METHOD_NAME_PATTERN } from '../src/bridge/ipcChannels';
import { errorMessage } from '../src/common/errorText';

function refused(code: string, method: string, message: string): BridgeOutcome {
  return { ok: false, error: { code, method, path: '', message } };
}

const api: PreloadBridgeApi = {
  shell: 'electron',
  async invoke(method, params) {
    if (typeof method !== 'string' || !METHOD_NAME_PATTERN.test(method)) {
      return refused(
        'unknown_method',
        typeof method === 'string' ? method : '',
        `"${String(method)}" is not a bridge method name.`,
      );
    }
    try {
      return (await ipcRenderer.invoke(ipcChannelForMethod(method), params)) as BridgeOutcome;
    } catch (error) {
      // ipcRenderer.invoke rejects when main has no handler for the channel, or params cannot be cloned.
      const reason = errorMessage(error);
      const code = reason.includes('No handler registered') ? 'unknown_method' : 'invalid_params';
      return refused(code, method, `${method} could not be sent to the main process: ${reason}`);
    }
  },
  onEvent(listener) {
    const forward = (_event: IpcRendererEvent, payload: BridgeEvent) => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward);
    };
  },
};

contextBridge.exposeInMainWorld('contextscope', api);

import type { PreloadBridgeApi } from '../../src/bridge';

declare global {
  interface Window {
    /** Present in Electron only (main/preload.ts). */
    contextscope?: PreloadBridgeApi;
  }
}

export {};

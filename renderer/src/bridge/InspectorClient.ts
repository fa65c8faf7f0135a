import type { InspectorApi } from '../../../src/bridge';

export type ConnectionState = 'connecting' | 'connected' | 'disconnected';
export type TransportKind = 'preload' | 'websocket';

/** The InspectorApi plus what the UI needs to show about the link itself. Same shape for both transports. */
export interface InspectorClient extends InspectorApi {
  readonly transport: TransportKind;
  connectionState(): ConnectionState;
  /** Called on every state change; returns the unsubscribe function. */
  onConnectionChange(listener: (state: ConnectionState, reason?: string) => void): () => void;
  close(): void;
}

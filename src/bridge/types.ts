import type { Static } from '@sinclair/typebox';
import type { BridgeError } from './errors';
import type { BridgeEvent } from './events';
import type { MethodSpec, MethodSpecs } from './methodSpec';
import type { methods } from './methods';

export type BridgeMethods = typeof methods;
export type MethodName = keyof BridgeMethods & string;
export type RequestOf<M extends MethodName> = Static<BridgeMethods[M]['request']>;
export type ResponseOf<M extends MethodName> = Static<BridgeMethods[M]['response']>;

/** What a call answers, on every transport: the result, or a structured error. Never a thrown exception. */
export type BridgeOutcome<T = unknown> = { ok: true; result: T } | { ok: false; error: BridgeError };

/** The API the renderer programs against; both the preload client and the WebSocket client implement it. */
export interface InspectorApi {
  /** Resolves with the method's result; rejects with an error carrying `code`, `method`, `path`. */
  call<M extends MethodName>(method: M, params: RequestOf<M>): Promise<ResponseOf<M>>;
  /** Subscribes to the event stream; returns the unsubscribe function. */
  onEvent(listener: (event: BridgeEvent) => void): () => void;
}

/** What `main/preload.ts` exposes as `window.contextscope` (plain data crosses the context bridge). */
export interface PreloadBridgeApi {
  readonly shell: 'electron';
  invoke(method: string, params: unknown): Promise<BridgeOutcome>;
  onEvent(listener: (event: BridgeEvent) => void): () => void;
}

/** Name under which the preload exposes the bridge on `window`. */
export type PreloadGlobalName = 'contextscope';

export type SpecRequest<S extends MethodSpec> = Static<S['request']>;
export type SpecResponse<S extends MethodSpec> = Static<S['response']>;
export type { MethodSpec, MethodSpecs };

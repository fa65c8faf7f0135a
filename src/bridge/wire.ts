import { Type, type Static } from '@sinclair/typebox';
import type { BridgeError } from './errors';

/** Browser mode: what the page sends over the WebSocket. `params` may be omitted for methods without params. */
export const WireRequestSchema = Type.Object(
  {
    id: Type.Union([Type.String({ minLength: 1, maxLength: 128 }), Type.Integer()]),
    method: Type.String({ minLength: 1, maxLength: 200 }),
    params: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
export type WireRequest = Static<typeof WireRequestSchema>;
export type WireRequestId = WireRequest['id'];

/** Browser mode: the answer to one request. `id` is null when the request's id could not be read. */
export type WireResponse =
  { id: WireRequestId | null; ok: true; result: unknown } | { id: WireRequestId | null; ok: false; error: BridgeError };

/** Path of the bridge endpoint in browser mode (`ws://127.0.0.1:<port>/bridge?token=<token>`). */
export const WEBSOCKET_BRIDGE_PATH = '/bridge';
/** Query parameter carrying the per-launch secret, both in the page URL and in the WebSocket URL. */
export const TOKEN_QUERY_PARAM = 'token';

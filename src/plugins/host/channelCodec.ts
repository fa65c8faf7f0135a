/**
 * The engine-host channel's codec: how the values of one payload (a request's arguments, a reply) become JSON-safe
 * trees and back, and what the two ends must remember between payloads. RpcPeer talks to this interface only; both
 * ends of one channel use the same implementation (the app chooses it, the host learns it at spawn through
 * `CONTEXTSCOPE_HOST_CODEC` in its environment and says which one it speaks in its `ready` message).
 *
 * - `refs` (the default): the message reference table (messageRefTable.ts). A message sent before crosses as a
 *   reference, so a call costs what is new in it; the app releases engine-named ids with `release` messages.
 * - `json`: every value crosses whole, as the wire format without message references (no `def`/`ref`/`refs`/
 *   `array`/`prefix`/`like` nodes, no release protocol, nothing remembered between payloads). Values JSON cannot
 *   carry (undefined, Sets, errors, functions, AbortSignals) keep their tagged nodes (wireCodec.ts). Slower on long
 *   histories (every call re-sends every message), but each frame reads on its own: use it to debug "the engine got
 *   the wrong message".
 *
 * src/plugins/host/PROTOCOL.md describes both.
 */
import { MessageRefTable } from './messageRefTable';
import type { DecodeContext, EncodeContext } from './wireContext';
import { decodeWire } from './wireDecode';
import { encodeWire } from './wireEncode';
import type { Json, WireSide } from './wireFormat';

export const HOST_CODEC_NAMES = ['refs', 'json'] as const;
export type HostCodecName = (typeof HOST_CODEC_NAMES)[number];
export const DEFAULT_HOST_CODEC: HostCodecName = 'refs';
/** The environment variable that chooses the codec: read by the app (its default), set by the app for each host. */
export const HOST_CODEC_ENV = 'CONTEXTSCOPE_HOST_CODEC';

/** What the channel provides while encoding (functions, signals); the message cache is the codec's own. */
export type ChannelEncodeContext = Omit<EncodeContext, 'messageRefs'>;
export type ChannelDecodeContext = Omit<DecodeContext, 'messageRefs'>;

/** One outgoing payload: encode its values, then `commit` once it was handed to the transport. */
export interface PayloadEncoder {
  encode(value: unknown, ctx: ChannelEncodeContext): Json;
  /** what the payload named is known to the peer from now on */
  commit(): void;
}

/** One incoming payload: decode its values (in place: the node must be freshly parsed), then `commit`. */
export interface PayloadDecoder {
  decode(node: unknown, ctx: ChannelDecodeContext): unknown;
  /** what the payload defined is known to this side from now on (not when decoding failed) */
  commit(): void;
}

export interface ChannelCodec {
  readonly name: HostCodecName;
  beginEncode(): PayloadEncoder;
  beginDecode(): PayloadDecoder;
  /** app: the engine-named ids to list in a `release` message now (each returned once) */
  takeReleases(): number[];
  /** engine host: the app released these ids of its own */
  releaseOwn(ids: readonly number[]): void;
  /** app: the engine host answered `released`; a problem when it names ids the app never released */
  confirmReleased(ids: readonly number[]): string | null;
  /** how many message objects this side keeps for later payloads */
  readonly retainedMessages: number;
  /** forgets everything (the channel closed) */
  reset(): void;
}

/** The message reference table behind the codec interface. */
class ReferenceTableCodec implements ChannelCodec {
  readonly name = 'refs';
  private readonly table: MessageRefTable;

  constructor(side: WireSide) {
    this.table = new MessageRefTable(side);
  }

  beginEncode(): PayloadEncoder {
    const messageRefs = this.table.beginEncode();
    return {
      encode: (value, ctx) => encodeWire(value, { ...ctx, messageRefs }),
      commit: () => messageRefs.commit(),
    };
  }

  beginDecode(): PayloadDecoder {
    const messageRefs = this.table.beginDecode();
    return {
      decode: (node, ctx) => decodeWire(node, { ...ctx, messageRefs }),
      commit: () => messageRefs.commit(),
    };
  }

  takeReleases(): number[] {
    return this.table.takeReleases();
  }
  releaseOwn(ids: readonly number[]): void {
    this.table.releaseOwn(ids);
  }
  confirmReleased(ids: readonly number[]): string | null {
    return this.table.confirmReleased(ids);
  }
  get retainedMessages(): number {
    return this.table.size;
  }
  reset(): void {
    this.table.reset();
  }
}

const NO_IDS: number[] = [];

/** Every value whole: the wire format without a message cache (its decoder rejects reference nodes). */
class PlainJsonCodec implements ChannelCodec {
  readonly name = 'json';
  // nothing is remembered between payloads, so one stateless payload coder serves them all
  private readonly payload: PayloadEncoder & PayloadDecoder = {
    encode: encodeWire,
    decode: decodeWire,
    commit: () => undefined,
  };

  beginEncode(): PayloadEncoder {
    return this.payload;
  }
  beginDecode(): PayloadDecoder {
    return this.payload;
  }
  takeReleases(): number[] {
    return NO_IDS;
  }
  releaseOwn(): void {
    // the app never names ids to release on this codec; one that does is ignored like an unknown id
  }
  confirmReleased(ids: readonly number[]): string | null {
    return ids.length > 0
      ? `"released" names message ids, but this channel sends every value whole (the json codec): ${ids.slice(0, 5).join(', ')}`
      : null;
  }
  get retainedMessages(): number {
    return 0;
  }
  reset(): void {}
}

export function createChannelCodec(name: HostCodecName, side: WireSide): ChannelCodec {
  return name === 'json' ? new PlainJsonCodec() : new ReferenceTableCodec(side);
}

export function isHostCodecName(value: unknown): value is HostCodecName {
  return (HOST_CODEC_NAMES as readonly unknown[]).includes(value);
}

/** `text` as a codec name; throws naming `where` and the accepted names. */
export function parseHostCodec(text: string, where: string): HostCodecName {
  const name = text.trim();
  if (isHostCodecName(name)) return name;
  throw new Error(`${where} is "${text}": use ${HOST_CODEC_NAMES.map((n) => `"${n}"`).join(' or ')}`);
}

/** The codec `CONTEXTSCOPE_HOST_CODEC` names in `env`, else the default. */
export function hostCodecFromEnv(env: NodeJS.ProcessEnv | Record<string, string | undefined>): HostCodecName {
  const value = env[HOST_CODEC_ENV];
  return value === undefined || value === '' ? DEFAULT_HOST_CODEC : parseHostCodec(value, HOST_CODEC_ENV);
}

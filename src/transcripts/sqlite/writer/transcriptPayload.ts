/**
 * How OpenClaw 2026.9.6 stores one transcript event (agent schema 23): identity `event_json` TEXT, or a level-1
 * checksummed zstd frame in `event_zstd` with `navigation_json`, when the event is 1 KiB–4 MiB of UTF-8, has no
 * `\u` escapes or NUL, is not the header, and the frame plus its navigation metadata saves at least
 * max(64 bytes, 10 %). `event_utf8_bytes` is the event's UTF-8 size either way. Schema 19 (2026.8.1) has only
 * `event_json`.
 */
import { compressZstd, MAX_ZSTD_EVENT_BYTES } from '../zstdCodec';
import { navigationJson } from './navigationProjection';

export const MIN_COMPRESS_BYTES = 1024;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface EventPayload {
  event_json: string | null;
  event_zstd: Buffer | null;
  event_utf8_bytes: number;
  navigation_json: string | null;
}

export function identityPayload(eventJson: string): EventPayload {
  return {
    event_json: eventJson,
    event_zstd: null,
    event_utf8_bytes: Buffer.byteLength(eventJson, 'utf8'),
    navigation_json: null,
  };
}

/** The stored form of one event. `parsed` is the event as an object (the header is never compressed). */
export function prepareEventPayload(eventJson: string, parsed: unknown): EventPayload {
  const identity = identityPayload(eventJson);
  const rawBytes = identity.event_utf8_bytes;
  if (rawBytes < MIN_COMPRESS_BYTES || rawBytes > MAX_ZSTD_EVENT_BYTES) return identity;
  if (eventJson.includes('\\u') || eventJson.includes('\0') || LONE_SURROGATE.test(eventJson)) return identity;
  const header = parsed as { type?: unknown; id?: unknown } | null;
  if (typeof header === 'object' && header !== null && header.type === 'session' && typeof header.id === 'string')
    return identity;
  const compressed = compressZstd(Buffer.from(eventJson, 'utf8'));
  const maximumStoredBytes = rawBytes - Math.max(64, Math.ceil(rawBytes / 10));
  if (compressed.length > maximumStoredBytes) return identity;
  const navigation = navigationJson(eventJson, parsed);
  if (navigation === null) return identity;
  const navigationBytes = Buffer.byteLength(navigation, 'utf8');
  if (navigationBytes > 16384 || compressed.length + navigationBytes > maximumStoredBytes) return identity;
  return { event_json: null, event_zstd: compressed, event_utf8_bytes: rawBytes, navigation_json: navigation };
}

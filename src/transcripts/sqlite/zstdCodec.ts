/**
 * zstd for transcript rows: OpenClaw 2026.9.6 stores events of 1 KiB–4 MiB as plain zstd frames (no dictionary,
 * content size and checksum present) in `transcript_events.event_zstd`, and cold archives as zstd JSONL files.
 * Both directions use the zstd-napi package (native libzstd through N-API, so it also loads in Electron) and fall
 * back to `zlib.zstd*Sync` (Node >= 22.15) when it does not load: decoding 1,750 event frames takes 12 ms with
 * zstd-napi and 63 ms with zlib's sync API (a new context per call), and one encoder means a seed writes the
 * same bytes on every runtime.
 */
import { createRequire } from 'node:module';
import * as zlib from 'node:zlib';
import { errorMessage } from '../../common/errorText';

const ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd] as const;
/** OpenClaw's bound for one stored event (and for a decoded one) */
export const MAX_ZSTD_EVENT_BYTES = 4 * 1024 * 1024;

interface ZstdNapi {
  compress(data: Uint8Array, parameters?: { compressionLevel?: number; checksumFlag?: boolean }): Buffer;
  Decompressor: new () => { decompress(data: Uint8Array): Buffer };
}
type ZlibZstd = {
  zstdDecompressSync?: (data: Uint8Array, options?: { maxOutputLength?: number }) => Buffer;
  zstdCompressSync?: (data: Uint8Array, options?: { params?: Record<number, number> }) => Buffer;
  constants: Record<string, number>;
};

let napi: ZstdNapi | null | undefined;
let napiError: string | undefined;
/** zstd-napi's context is left mid-frame by a failed decode (every later decode then fails): dropped on error */
let napiDecoder: { decompress(data: Uint8Array): Buffer } | undefined;

function loadNapi(): ZstdNapi | null {
  if (napi !== undefined) return napi;
  try {
    napi = createRequire(import.meta.url)('zstd-napi') as ZstdNapi;
  } catch (error) {
    napi = null;
    napiError = errorMessage(error);
  }
  return napi;
}

const zlibZstd = zlib as unknown as ZlibZstd;

/** Which implementation decodes here: `zstd-napi`, or `zlib` (Node's own) when zstd-napi does not load. */
export function zstdDecoderName(): 'zlib' | 'zstd-napi' | 'none' {
  if (loadNapi()) return 'zstd-napi';
  return typeof zlibZstd.zstdDecompressSync === 'function' ? 'zlib' : 'none';
}

function napiDecompress(codec: ZstdNapi, frame: Uint8Array): Buffer {
  napiDecoder ??= new codec.Decompressor();
  try {
    return napiDecoder.decompress(frame);
  } catch (error) {
    napiDecoder = undefined;
    throw error;
  }
}

export function isZstdFrame(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && ZSTD_MAGIC.every((b, i) => bytes[i] === b);
}

function hexStart(bytes: Uint8Array): string {
  return Buffer.from(bytes.subarray(0, 4))
    .toString('hex')
    .replace(/(..)(?=.)/g, '$1 ');
}

/**
 * Decodes one zstd frame. `where` names the row or file for the error message; `expectedBytes` (when known, e.g.
 * `event_utf8_bytes`) is checked against the decoded size.
 */
export function decompressZstd(frame: Uint8Array, where: string, expectedBytes?: number): Buffer {
  if (!isZstdFrame(frame)) {
    throw new Error(
      `${where}: not a zstd frame (${frame.length} bytes starting ${hexStart(frame) || '(empty)'}; expected 28 b5 2f fd)`,
    );
  }
  let decoded: Buffer;
  try {
    const codec = loadNapi();
    if (codec) decoded = napiDecompress(codec, frame);
    else if (typeof zlibZstd.zstdDecompressSync === 'function') {
      const maxOutputLength = expectedBytes !== undefined ? Math.max(expectedBytes, 1) : undefined;
      decoded = zlibZstd.zstdDecompressSync(frame, maxOutputLength ? { maxOutputLength } : undefined);
    } else
      throw new Error(`no zstd decoder (zstd-napi did not load: ${napiError ?? 'unknown'}; Node has no zlib zstd)`);
  } catch (error) {
    throw new Error(`${where}: corrupt zstd frame (${errorMessage(error)})`, { cause: error });
  }
  if (expectedBytes !== undefined && decoded.length !== expectedBytes) {
    throw new Error(`${where}: zstd frame decodes to ${decoded.length} bytes, but the row records ${expectedBytes}`);
  }
  return decoded;
}

/** Encodes as OpenClaw does: level 1, content checksum on. */
export function compressZstd(data: Uint8Array): Buffer {
  const codec = loadNapi();
  if (codec) return codec.compress(data, { compressionLevel: 1, checksumFlag: true });
  if (typeof zlibZstd.zstdCompressSync === 'function') {
    const c = zlibZstd.constants;
    return zlibZstd.zstdCompressSync(data, {
      params: { [c.ZSTD_c_compressionLevel!]: 1, [c.ZSTD_c_checksumFlag!]: 1 },
    });
  }
  throw new Error(`no zstd encoder (zstd-napi did not load: ${napiError ?? 'unknown'}; Node has no zlib zstd)`);
}

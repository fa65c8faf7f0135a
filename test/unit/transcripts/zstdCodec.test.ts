/**
 * The zstd frames of OpenClaw's SQLite transcripts (src/transcripts/sqlite/zstdCodec.ts): what decodes, and the
 * error that names the row when something does not.
 */
import { describe, expect, it } from 'vitest';
import { compressZstd, decompressZstd, isZstdFrame, zstdDecoderName } from '../../../src/transcripts/sqlite/zstdCodec';

const WHERE = 'openclaw-agent.sqlite: transcript_events session s seq 3';

describe('zstd frames', () => {
  it('round-trips what OpenClaw writes and checks the size the row records', () => {
    const text = Buffer.from(`{"type":"message","text":"${'漢字 '.repeat(100)}"}`);
    const frame = compressZstd(text);
    expect(isZstdFrame(frame)).toBe(true);
    expect(decompressZstd(frame, WHERE, text.length)).toEqual(text);
    expect(decompressZstd(frame, WHERE)).toEqual(text);
    expect(() => decompressZstd(frame, WHERE, text.length + 1)).toThrow(
      `${WHERE}: zstd frame decodes to ${text.length} bytes, but the row records ${text.length + 1}`,
    );
  });

  it('writes a content checksum, as OpenClaw does (frame header descriptor bit 2)', () => {
    const frame = compressZstd(Buffer.from('hello'));
    expect(frame[4]! & 0b100).toBe(0b100);
  });

  it('knows a frame by its magic number only', () => {
    expect(isZstdFrame(Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd]))).toBe(true);
    expect(isZstdFrame(Uint8Array.from([0x28, 0xb5, 0x2f]))).toBe(false);
    expect(isZstdFrame(Uint8Array.from([0x28, 0xb5, 0x2f, 0xfe, 0]))).toBe(false);
    expect(isZstdFrame(Uint8Array.from([0x29, 0xb5, 0x2f, 0xfd]))).toBe(false);
  });

  it('names the row and the bytes it found when the value is not a zstd frame', () => {
    expect(() => decompressZstd(Buffer.from('{"plain":1}'), WHERE)).toThrow(
      `${WHERE}: not a zstd frame (11 bytes starting 7b 22 70 6c; expected 28 b5 2f fd)`,
    );
    expect(() => decompressZstd(new Uint8Array(0), WHERE)).toThrow(
      `${WHERE}: not a zstd frame (0 bytes starting (empty); expected 28 b5 2f fd)`,
    );
  });

  it('says a frame is corrupt, naming the row, when its body does not decode', () => {
    const frame = compressZstd(Buffer.from('x'.repeat(1000)));
    const cut = frame.subarray(0, frame.length - 6);
    expect(() => decompressZstd(cut, WHERE)).toThrow(new RegExp(`^${WHERE}: corrupt zstd frame \\(`));
  });

  it('has a decoder here', () => {
    expect(['zstd-napi', 'zlib']).toContain(zstdDecoderName());
  });
});

import { describe, expect, it } from 'vitest';
import { jsonTextPieces } from '../../../src/common/jsonTextPieces';

describe('jsonTextPieces', () => {
  it('joins back to the text, keeps surrogate pairs whole and each piece near its bound, escapes counted', () => {
    const text = `${'a"\\\n'.repeat(40_000)}${'😀'.repeat(30_000)}${'\u0001'.repeat(20_000)}`;
    const pieces = jsonTextPieces(text, 64 * 1024);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) {
      // one 16 Ki-character step of six-byte escapes past the bound at most
      expect(Buffer.byteLength(JSON.stringify(piece))).toBeLessThan(64 * 1024 + 6 * 16 * 1024 + 2);
      const last = piece.charCodeAt(piece.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
    }
    expect(pieces.length).toBeGreaterThan(4);
  });
});

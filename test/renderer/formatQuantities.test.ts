import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration } from '../../renderer/src/formatQuantities';

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [950, '950 ms'],
    [1_000, '1 s'],
    [61_000, '1 min 1 s'],
    [3_720_000, '1 h 2 min'],
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});

describe('formatBytes', () => {
  it.each([
    [512, '512 B'],
    [1536, '1.5 KiB'],
    [73_400_320, '70.0 MiB'],
    [3 * 1024 ** 3, '3.0 GiB'],
  ])('%d → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

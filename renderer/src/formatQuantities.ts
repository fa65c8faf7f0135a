/** 950 → "950 ms", 61_000 → "1 min 1 s", 3_720_000 → "1 h 2 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const totalSeconds = Math.floor(ms / 1000);
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours} h ${minutes} min`;
  if (minutes > 0) return `${minutes} min ${seconds} s`;
  return `${seconds} s`;
}

/** 1536 → "1.5 KiB", 73_400_320 → "70.0 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

// one formatter for every count: toLocaleString builds a new one per call, which a turn's tables call hundreds of times
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** 12345 → "12,345" (grouping fixed to en-US so numbers read the same everywhere). */
export function formatCount(value: number): string {
  return COUNT_FORMAT.format(Math.round(value));
}

/** Engine-call durations: 1.84 → "1.8 ms", 250.4 → "250 ms", 1520 → "1.52 s". */
export function formatMs(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * Session timestamps are strict ISO-8601 strings (`2026-01-02T03:04:05.678Z` or with a `+hh:mm` offset),
 * validated field by field the way OpenClaw's `parseSessionTimestampMs` does: `Date.parse` alone accepts
 * strings such as "2026-02-30" or "Tuesday" that OpenClaw rejects.
 */
const MAX_DATE_MS = 8_640_000_000_000_000;
const ISO_TIMESTAMP = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Milliseconds since the epoch, or `undefined` when the value is not a valid session timestamp. */
export function parseSessionTimestampMs(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const m = ISO_TIMESTAMP.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  const zone = m[7]!;
  const zoneHour = zone === 'Z' ? 0 : Number(zone.slice(1, 3));
  const zoneMinute = zone === 'Z' ? 0 : Number(zone.slice(4, 6));
  const fieldsValid =
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth(year!, month!) &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    zoneHour <= 23 &&
    zoneMinute <= 59;
  if (!fieldsValid) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_DATE_MS ? ms : undefined;
}

/** Like {@link parseSessionTimestampMs} but 0 for an invalid value (OpenClaw keeps going on corrupt rows). */
export function sessionTimestampMsOrZero(value: unknown): number {
  return parseSessionTimestampMs(value) ?? 0;
}

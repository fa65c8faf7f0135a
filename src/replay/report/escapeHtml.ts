/** Escaping for text placed in HTML/SVG (element content and quoted attribute values). */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A one-line preview of untrusted text: whitespace collapsed, cut at `max` characters, then escaped. */
export function previewText(value: string, max = 160): string {
  const oneLine = value.replace(/\s+/g, ' ').trim();
  return escapeHtml(oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine);
}

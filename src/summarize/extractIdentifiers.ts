/**
 * Finds opaque identifiers in free text — URLs, UUIDs, hex hashes, host:port pairs, IPs, "port N" mentions and
 * file paths — and returns them exactly as written, in order of first appearance, without overlaps (a path inside
 * a URL or a hash inside a UUID is not reported twice). The deterministic summarizer copies these verbatim.
 */

interface Candidate {
  start: number;
  end: number;
  value: string;
}

const TRAILING_PUNCTUATION = '.,;:!?\'"`)]';
const TRAILING_PUNCTUATION_RE = /[.,;:!?'"`)\]]+$/;
const NOT_ONLY_PATH_PUNCTUATION_RE = /[^./~]/;

/**
 * The patterns, each with a cheap test every text holding a match passes (`mustContain`): most texts hold no URL,
 * host:port or hostname, and the test skips these costly scans for them.
 */
const PATTERNS: { pattern: RegExp; mustContain?: RegExp }[] = [
  { pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s<>"'`)\]]+/gi, mustContain: /:\/\// }, // URLs
  {
    pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
    mustContain: /-[0-9a-f]{4}-[0-9a-f]{4}-/i,
  }, // UUIDs
  { pattern: /\b(?:localhost|(?:\d{1,3}\.){3}\d{1,3}|[a-z0-9-]+(?:\.[a-z0-9-]+)+):\d{2,5}\b/gi, mustContain: /:\d\d/ }, // host:port
  { pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\b/g }, // IPv4
  { pattern: /\bport\s+\d{2,5}\b/gi }, // "port 8080"
  {
    pattern: /\b(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|ai|app|cloud|local|internal|lan|corp)\b/gi,
    mustContain: /\.(?:com|org|net|io|dev|ai|app|cloud|local|internal|lan|corp)\b/i,
  }, // hostnames
  { pattern: /(?:~|\.{1,2})?\/[A-Za-z0-9._\-@+%]+(?:\/[A-Za-z0-9._\-@+%]+)*\/?/g }, // absolute or ./ ../ ~/ paths
  { pattern: /\b[A-Za-z0-9_.\-@]+(?:\/[A-Za-z0-9_.\-@]+)+/g }, // relative paths with a slash
  {
    pattern:
      /\b[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.(?:ts|tsx|js|jsx|mjs|cjs|json|jsonl|json5|md|py|rs|go|java|kt|rb|c|h|cpp|hpp|cs|swift|yaml|yml|toml|txt|sh|css|scss|html|sql|lock|env|cfg|ini|xml|log|csv)\b/g,
  }, // file names
  { pattern: /\b[0-9a-f]{7,64}\b/gi }, // hex hashes (kept only when they mix digits and letters)
];

function isHexHash(value: string): boolean {
  return /[0-9]/.test(value) && /[a-f]/i.test(value) && /^[0-9a-f]+$/i.test(value);
}

function collect(text: string): Candidate[] {
  const found: Candidate[] = [];
  PATTERNS.forEach(({ pattern, mustContain }, patternIndex) => {
    if (mustContain && !mustContain.test(text)) return;
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      let value = match[0];
      const isLast = patternIndex === PATTERNS.length - 1;
      if (isLast && !isHexHash(value)) continue;
      if (TRAILING_PUNCTUATION.includes(value[value.length - 1]!)) value = value.replace(TRAILING_PUNCTUATION_RE, '');
      // a bare "/" or "." is not a path
      if (!NOT_ONLY_PATH_PUNCTUATION_RE.test(value)) continue;
      const start = match.index ?? 0;
      found.push({ start, end: start + value.length, value });
    }
  });
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const accepted: Candidate[] = [];
  let coveredUntil = -1;
  for (const candidate of found) {
    if (candidate.start < coveredUntil) continue;
    accepted.push(candidate);
    coveredUntil = candidate.end;
  }
  return accepted;
}

/** Identifiers in `text`, exactly as written, first appearance first. */
export function extractIdentifiers(text: string): string[] {
  return [...new Set(collect(text).map((c) => c.value))];
}

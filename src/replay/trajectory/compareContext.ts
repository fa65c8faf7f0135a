/**
 * Does a replayed context equal what OpenClaw recorded in its trajectory (`context.compiled.data.messages`)?
 *
 * The trajectory is not a verbatim copy: OpenClaw bounds and redacts the payload before writing it (2026.7.35 and
 * 2026.9.6 `limitTrajectoryPayloadValue` + `sanitizeDiagnosticPayload` + `redactSecrets`; the
 * `export-trajectory` bundle also rewrites local paths). So a recorded value matches a replayed one when:
 * - a string over 32,768 characters became `{truncated: true, reason: "trajectory-field-size-limit",
 *   originalChars}`: the replayed string has that length;
 * - an array over 64 items kept its first 64 and ends with `{reason: "trajectory-array-size-limit",
 *   originalLength}`: the replayed array has that length and the same first 64;
 * - an object over 64 keys kept its first 64 and got `_truncated`: those keys match;
 * - nesting at depth 6 became `{reason: "trajectory-depth-limit"}` (and cycles `trajectory-circular-reference`):
 *   any replayed object;
 * - an object or array past the 64 that 2026.9.6's diagnostic projection visits per payload became the string
 *   `"[Truncated]"` (`projectDiagnosticValue`, @openclaw/ai provider-error-*.mjs, under `sanitizeDiagnosticPayload`;
 *   the SQLite trajectory of a long turn loses its last messages' content, usage and then whole messages to it):
 *   any replayed object or array;
 * - image data became `data: "<redacted>"` with `bytes` and `sha256`: the sha256 of the replayed data;
 * - a string with redaction marks (`<redacted>`, `<redacted-…>`, `***`, a masked `abcdef…wxyz` secret, the
 *   export's `$WORKSPACE_DIR`, `$OPENCLAW_STATE_DIR` and `~/`): the replayed string with anything in their place.
 * Everything else must be equal (keys in any order; an `undefined` property is a missing one, as in JSON).
 */
import { createHash } from 'node:crypto';
import { isRecord } from '../../common/guards';

export interface ContextDifference {
  /** index of the first message that differs (the shorter length when one list is a prefix of the other) */
  index: number;
  /** where inside that message, e.g. `content[0].text`, `usage.totalTokens`; `(message)` for a missing one */
  field: string;
  recorded: string;
  replayed: string;
}

export interface ContextComparison {
  exact: boolean;
  /** the recorded list had truncation markers (compared as described above) */
  truncated: boolean;
  /** message counts: recorded (its original length when truncated) and replayed */
  recordedCount: number;
  replayedCount: number;
  difference?: ContextDifference;
}

const LIMIT = {
  field: 'trajectory-field-size-limit',
  array: 'trajectory-array-size-limit',
  object: 'trajectory-object-size-limit',
  depth: 'trajectory-depth-limit',
  circular: 'trajectory-circular-reference',
} as const;

/** What 2026.9.6's diagnostic projection writes in place of each object or array once its 64-node budget is spent. */
const NODE_BUDGET_MARK = '[Truncated]';

const REDACTION = /<redacted[^>]*>|\*\*\*|…|\$WORKSPACE_DIR|\$OPENCLAW_STATE_DIR|~(?=\/)/;

function markerReason(value: unknown): string | undefined {
  return isRecord(value) && value.truncated === true && typeof value.reason === 'string' ? value.reason : undefined;
}

interface Mismatch {
  path: string;
  recorded: unknown;
  replayed: unknown;
}

interface Walk {
  truncated: boolean;
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function redactedStringMatches(recorded: string, replayed: string): boolean {
  if (!REDACTION.test(recorded)) return false;
  const parts = recorded.split(new RegExp(REDACTION.source, 'g')).map(escapeRegExp);
  return new RegExp(`^${parts.join('[\\s\\S]*?')}$`).test(replayed);
}

function matchString(recorded: string, replayed: unknown, path: string, w: Walk): Mismatch | null {
  if (recorded === replayed) return null;
  // only objects and arrays cost a node: a replayed string or number here is a real difference
  if (recorded === NODE_BUDGET_MARK && typeof replayed === 'object' && replayed !== null) {
    w.truncated = true;
    return null;
  }
  if (typeof replayed === 'string' && redactedStringMatches(recorded, replayed)) return null;
  // a redacted number/boolean field (redactSecrets writes "***")
  if (recorded === '***' && replayed !== undefined && typeof replayed !== 'object') return null;
  return { path, recorded, replayed };
}

function matchMarker(reason: string, recorded: Record<string, unknown>, replayed: unknown, path: string, w: Walk) {
  w.truncated = true;
  if (reason === LIMIT.field) {
    return typeof replayed === 'string' && replayed.length === recorded.originalChars
      ? null
      : { path, recorded: `(string of ${String(recorded.originalChars)} chars)`, replayed };
  }
  if (reason === LIMIT.depth || reason === LIMIT.circular) {
    return typeof replayed === 'object' && replayed !== null ? null : { path, recorded: `(${reason})`, replayed };
  }
  return { path, recorded: `(${reason})`, replayed };
}

function matchArray(recorded: unknown[], replayed: unknown, path: string, depth: number, w: Walk): Mismatch | null {
  if (!Array.isArray(replayed)) return { path, recorded: '(array)', replayed };
  const last = recorded[recorded.length - 1];
  let kept = recorded;
  let length = recorded.length;
  if (markerReason(last) === LIMIT.array) {
    w.truncated = true;
    kept = recorded.slice(0, -1);
    length = Number((last as Record<string, unknown>).originalLength);
  }
  for (let i = 0; i < kept.length; i++) {
    const found = matchValue(kept[i], replayed[i], join(path, i), depth + 1, w);
    if (found) return found;
  }
  return replayed.length === length ? null : { path: `${path}.length`, recorded: length, replayed: replayed.length };
}

function sha256(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((k) => record[k] !== undefined);
}

function matchObject(recorded: Record<string, unknown>, replayed: unknown, path: string, depth: number, w: Walk) {
  if (!isRecord(replayed) || Array.isArray(replayed)) return { path, recorded: '(object)', replayed };
  let skip = new Set<string>();
  if (recorded.data === '<redacted>' && typeof recorded.sha256 === 'string' && typeof replayed.data === 'string') {
    w.truncated = true;
    if (sha256(replayed.data) !== recorded.sha256)
      return { path: join(path, 'data'), recorded: `(sha256 ${recorded.sha256})`, replayed: '(other data)' };
    skip = new Set(['data', 'bytes', 'sha256']);
  }
  const partial = markerReason(recorded._truncated) === LIMIT.object;
  if (partial) w.truncated = true;
  for (const key of definedKeys(recorded)) {
    if (skip.has(key) || (partial && key === '_truncated')) continue;
    const found = matchValue(recorded[key], replayed[key], join(path, key), depth + 1, w);
    if (found) return found;
  }
  if (partial) return null;
  const extra = definedKeys(replayed).find((key) => !skip.has(key) && !Object.hasOwn(recorded, key));
  return extra === undefined ? null : { path: join(path, extra), recorded: undefined, replayed: replayed[extra] };
}

function matchValue(recorded: unknown, replayed: unknown, path: string, depth: number, w: Walk): Mismatch | null {
  if (typeof recorded === 'string') return matchString(recorded, replayed, path, w);
  const reason = markerReason(recorded);
  if (reason?.startsWith('trajectory-') && typeof replayed !== 'object')
    return matchMarker(reason, recorded as Record<string, unknown>, replayed, path, w);
  if (reason === LIMIT.depth || reason === LIMIT.circular)
    return matchMarker(reason, recorded as Record<string, unknown>, replayed, path, w);
  if (Array.isArray(recorded)) return matchArray(recorded, replayed, path, depth, w);
  if (isRecord(recorded)) return matchObject(recorded, replayed, path, depth, w);
  return Object.is(recorded, replayed) || (recorded === null && replayed === null)
    ? null
    : { path, recorded, replayed };
}

/** A short, single-line rendering of a value for a person. */
export function describeValue(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** The recorded message list's length (its original length when the trajectory cut it at 64). */
function recordedLength(recorded: unknown[]): number {
  const last = recorded[recorded.length - 1];
  return markerReason(last) === LIMIT.array
    ? Number((last as Record<string, unknown>).originalLength)
    : recorded.length;
}

/** Compare the recorded `context.compiled` messages with a replayed context, message by message. */
export function compareRecordedContext(recorded: unknown[], replayed: readonly unknown[]): ContextComparison {
  const w: Walk = { truncated: false };
  const recordedCount = recordedLength(recorded);
  const found = matchArray(recorded, replayed, '', 0, w);
  const base = { truncated: w.truncated, recordedCount, replayedCount: replayed.length };
  if (!found) return { exact: true, ...base };
  const at = /^\[(\d+)\](?:\.)?(.*)$/.exec(found.path);
  const difference: ContextDifference = at
    ? {
        index: Number(at[1]),
        field: at[2] || '(message)',
        recorded: describeValue(found.recorded),
        replayed: describeValue(found.replayed),
      }
    : {
        index: Math.min(recordedCount, replayed.length),
        field: '(message)',
        recorded: recordedCount > replayed.length ? `${recordedCount} messages` : '(absent)',
        replayed: replayed.length > recordedCount ? `${replayed.length} messages` : '(absent)',
      };
  return { exact: false, ...base, difference };
}

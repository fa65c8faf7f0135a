/**
 * Per-line validation of a transcript: the header (first non-blank line) and each entry's envelope, with
 * OpenClaw's reasons (`jsonl-storage.ts` `parseHeaderLine` / `parseEntryLine`), plus body checks for the
 * fields ContextScope reads (so a malformed body is reported here instead of breaking context building).
 */
import {
  AGENT_MESSAGE_ROLES,
  jsonDepthProblem,
  MAX_MESSAGE_DEPTH,
  OPENCLAW_ENTRY_TYPES,
  type SessionEntryType,
} from '../contract';
import { excerpt } from './sessionProblems';
import { parseSessionTimestampMs } from './timestamps';
import { errorMessage } from '../common/errorText';
import { isRecord } from '../common/guards';

export type LineCheck =
  | { ok: true; value: Record<string, unknown> }
  | {
      ok: false;
      code: 'invalid_header' | 'unsupported_version' | 'invalid_entry' | 'misplaced_header';
      reason: string;
    };

export const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set<SessionEntryType>([...OPENCLAW_ENTRY_TYPES, 'leaf']);

const RESET_REASONS = new Set(['new', 'reset', 'idle', 'daily', 'cron-stale']);

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(excerpt(value, 40));
  return typeof value === 'object' ? 'an object' : `${typeof value} ${String(value)}`;
}

export function parseJsonLine(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: excerpt(contentFreeJsonError(errorMessage(error)), 160) };
  }
}

/**
 * JSON.parse's message without the text it quotes (V8: `Unexpected token 's', "secret pas"... is not valid JSON`):
 * a problem names positions, never the content of a line (a file that is not a transcript may hold anything).
 */
export function contentFreeJsonError(message: string): string {
  const quoted = message.indexOf(', "');
  const base = quoted >= 0 && /is not valid JSON$/.test(message) ? message.slice(0, quoted) : message;
  // the token itself is a character of the line too
  return base.startsWith("Unexpected token '") ? 'Unexpected token' : base;
}

const HEADER_HINT = 'expected {"type":"session","version":3,"id":...,"timestamp":...,"cwd":...}';

/**
 * Validates a parsed first line. Versions 1 and 2 are accepted here (they are migrated); a missing version is 1.
 * Version 4 (OpenClaw 2026.9.6 writes it for new sessions) keeps the version-3 entry format; what changed is the
 * prompt projection at the model boundary (see `promptProjection.ts`), so it is read like version 3.
 */
export function checkHeader(parsed: unknown): LineCheck {
  if (!isRecord(parsed) || parsed.type !== 'session') {
    const got = isRecord(parsed) ? `type ${describe(parsed.type)}` : describe(parsed);
    return {
      ok: false,
      code: 'invalid_header',
      reason: `first line is not a valid session header (got ${got}; ${HEADER_HINT})`,
    };
  }
  const version = parsed.version ?? 1;
  if (version !== 1 && version !== 2 && version !== 3 && version !== 4) {
    return {
      ok: false,
      code: 'unsupported_version',
      reason: `unsupported session version ${describe(parsed.version)} (ContextScope reads versions 1-4)`,
    };
  }
  if (typeof parsed.id !== 'string' || !parsed.id) {
    return { ok: false, code: 'invalid_header', reason: 'session header is missing id' };
  }
  if (typeof parsed.timestamp !== 'string' || !parsed.timestamp) {
    return { ok: false, code: 'invalid_header', reason: 'session header is missing timestamp' };
  }
  if (parseSessionTimestampMs(parsed.timestamp) === undefined) {
    return {
      ok: false,
      code: 'invalid_header',
      reason: `session header has invalid timestamp ${describe(parsed.timestamp)}`,
    };
  }
  if (typeof parsed.cwd !== 'string' || !parsed.cwd) {
    return { ok: false, code: 'invalid_header', reason: 'session header is missing cwd' };
  }
  if (parsed.parentSession !== undefined && typeof parsed.parentSession !== 'string') {
    return { ok: false, code: 'invalid_header', reason: 'session header parentSession must be a string' };
  }
  return { ok: true, value: parsed };
}

function invalid(reason: string): LineCheck {
  return { ok: false, code: 'invalid_entry', reason };
}

/**
 * Validates one parsed entry line. `hasIds` is false for version-1 files, whose entries get ids and
 * parents during migration.
 */
export function checkEntry(parsed: unknown, hasIds: boolean): LineCheck {
  if (!isRecord(parsed))
    return invalid(`is not a valid session entry (expected a JSON object, got ${describe(parsed)})`);
  const e = parsed;
  if (typeof e.type !== 'string') return invalid('is missing entry type');
  if (e.type === 'session') {
    return {
      ok: false,
      code: 'misplaced_header',
      reason: 'is a session header; only the first non-blank line may be one',
    };
  }
  if (hasIds) {
    if (typeof e.id !== 'string' || !e.id) return invalid('is missing entry id');
    if (e.parentId !== null && typeof e.parentId !== 'string') {
      return invalid(`has invalid parentId (expected a string or null, got ${describe(e.parentId)})`);
    }
  }
  if (typeof e.timestamp !== 'string' || !e.timestamp) return invalid('is missing timestamp');
  if (parseSessionTimestampMs(e.timestamp) === undefined) {
    return invalid(`has invalid timestamp ${describe(e.timestamp)} (expected ISO 8601, e.g. 2026-01-02T03:04:05.000Z)`);
  }
  if (e.type === 'leaf' && e.targetId !== null && typeof e.targetId !== 'string') {
    return invalid(`has invalid targetId (expected a string or null, got ${describe(e.targetId)})`);
  }
  if (
    e.type === 'leaf' &&
    e.appendParentId !== undefined &&
    e.appendParentId !== null &&
    typeof e.appendParentId !== 'string'
  ) {
    return invalid(`has invalid appendParentId (got ${describe(e.appendParentId)})`);
  }
  if (e.appendMode !== undefined && e.appendMode !== 'side') {
    return invalid(`has invalid appendMode ${describe(e.appendMode)} (only "side" is allowed)`);
  }
  const bodyProblem = checkEntryBody(e) ?? entryDepthProblem(e);
  return bodyProblem ? invalid(bodyProblem) : { ok: true, value: e };
}

const MESSAGE_ROLES: ReadonlySet<string> = new Set<string>([
  ...AGENT_MESSAGE_ROLES,
  // v2 files' name for custom messages; migration renames it after validation
  'hookMessage',
]);

/** Text-bearing blocks must carry strings (estimators and serializers read them as text). */
function contentBlocksProblem(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  for (let i = 0; i < content.length; i++) {
    const block: unknown = content[i];
    if (!isRecord(block) || typeof block.type !== 'string') {
      return `has a message whose content[${i}] is not a content block with a string type (got ${describe(block)})`;
    }
    for (const field of ['text', 'thinking'] as const) {
      if (block.type === field && typeof block[field] !== 'string') {
        return `has a message whose content[${i}].${field} is not a string (got ${describe(block[field])})`;
      }
    }
  }
  return undefined;
}

/** Any entry (a message, a custom entry's data, ...) nested deeper than a message may be: kept out whole. */
function entryDepthProblem(e: Record<string, unknown>): string | undefined {
  const problem = jsonDepthProblem(e, MAX_MESSAGE_DEPTH);
  if (!problem) return undefined;
  return e.type === 'message' ? `has a message ${problem}` : `has a ${String(e.type)} entry ${problem}`;
}

/** Body fields ContextScope relies on, per entry type; returns a reason or undefined. */
function checkEntryBody(e: Record<string, unknown>): string | undefined {
  switch (e.type) {
    case 'message': {
      const m = e.message;
      if (!isRecord(m) || typeof m.role !== 'string')
        return 'is a message entry without a message object with a string role';
      if ((m.role === 'user' || m.role === 'custom') && typeof m.content !== 'string' && !Array.isArray(m.content)) {
        return `has a ${m.role} message whose content is neither a string nor an array`;
      }
      if ((m.role === 'assistant' || m.role === 'toolResult') && !Array.isArray(m.content)) {
        return `has a ${m.role} message whose content is not an array`;
      }
      if (!MESSAGE_ROLES.has(m.role)) {
        return `has a message with unknown role ${describe(m.role)} (OpenClaw's roles: ${[...MESSAGE_ROLES].join(', ')})`;
      }
      return contentBlocksProblem(m.content);
    }
    case 'compaction':
      if (typeof e.summary !== 'string') return 'is a compaction entry without a string summary';
      if (typeof e.tokensBefore !== 'number') return 'is a compaction entry without a numeric tokensBefore';
      return undefined;
    case 'branch_summary':
      return typeof e.summary === 'string' ? undefined : 'is a branch_summary entry without a string summary';
    case 'custom_message':
      if (typeof e.customType !== 'string') return 'is a custom_message entry without a string customType';
      return typeof e.content === 'string' || Array.isArray(e.content)
        ? undefined
        : 'is a custom_message entry whose content is neither a string nor an array';
    case 'model_change':
      return typeof e.provider === 'string' && typeof e.modelId === 'string'
        ? undefined
        : 'is a model_change entry without string provider and modelId';
    case 'thinking_level_change':
      return typeof e.thinkingLevel === 'string'
        ? undefined
        : 'is a thinking_level_change entry without a string thinkingLevel';
    case 'reset':
      // Unlisted reason strings are accepted: OpenClaw adds reset reasons over time.
      return typeof e.reason === 'string'
        ? undefined
        : `is a reset entry without a string reason (expected one of ${[...RESET_REASONS].join(', ')})`;
    case 'label':
      return typeof e.targetId === 'string' ? undefined : 'is a label entry without a string targetId';
    default:
      return undefined;
  }
}

/**
 * The "report" part of a compressed row's `navigation_json` (OpenClaw 2026.9.6): how OpenClaw classifies an event
 * without decoding it — `canonical` (a recognised session entry: its id, parent, timestamp, type and a few
 * type-specific facts), `leaf` (a leaf-control row), `link` (an unrecognised row that still has id and parentId)
 * or `ignored`. Recognition follows OpenClaw's entry schemas (which fields each entry type must have).
 */
import { OPENCLAW_ENTRY_TYPES } from '../../../contract/transcript';
import { isRecord } from '../../../common/guards';

type Json = Record<string, unknown>;

const ENTRY_TYPES: ReadonlySet<string> = new Set(OPENCLAW_ENTRY_TYPES);
const RESET_REASONS = new Set(['new', 'reset', 'idle', 'daily', 'cron-stale']);

const isString = (v: unknown): v is string => typeof v === 'string';
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const optional = (v: unknown, check: (v: unknown) => boolean) => v === undefined || check(v);
const stringOrNull = (v: unknown) => v === null || typeof v === 'string';

/** A string, or an array of objects that each have a string `type`. */
function readableContent(value: unknown): boolean {
  return isString(value) || (Array.isArray(value) && value.every((b) => isRecord(b) && isString(b.type)));
}

function readableMessage(m: unknown): boolean {
  if (!isRecord(m)) return false;
  switch (m.role) {
    case 'user':
    case 'assistant':
      return readableContent(m.content);
    case 'toolResult':
      return (
        isString(m.toolCallId) && isString(m.toolName) && typeof m.isError === 'boolean' && Array.isArray(m.content)
      );
    case 'custom':
      return isString(m.customType) && readableContent(m.content);
    case 'bashExecution':
      return isString(m.command) && isString(m.output);
    default:
      return false;
  }
}

function typeFieldsValid(e: Json): boolean {
  switch (e.type) {
    case 'message':
      return readableMessage(e.message);
    case 'thinking_level_change':
      return nonEmpty(e.thinkingLevel);
    case 'model_change':
      return nonEmpty(e.provider) && nonEmpty(e.modelId);
    case 'compaction':
      return isString(e.summary) && nonEmpty(e.firstKeptEntryId) && typeof e.tokensBefore === 'number';
    case 'reset':
      return (
        e.reason !== undefined &&
        e.reason !== null &&
        RESET_REASONS.has(String(e.reason)) &&
        optional(e.firstKeptEntryId, isString)
      );
    case 'branch_summary':
      return isString(e.fromId) && isString(e.summary);
    case 'custom':
      return nonEmpty(e.customType);
    case 'custom_message':
      return nonEmpty(e.customType) && readableContent(e.content) && typeof e.display === 'boolean';
    case 'label':
      return nonEmpty(e.targetId) && optional(e.label, isString);
    default:
      return optional(e.name, isString); // session_info
  }
}

/** A legacy hook message (role custom without customType) is read as customType "hook". */
function normalizeHookMessage(e: Json): Json {
  const m = e.message;
  if (e.type !== 'message' || !isRecord(m) || m.role !== 'custom' || m.customType !== undefined) return e;
  return readableContent(m.content) ? { ...e, message: { ...m, customType: 'hook' } } : e;
}

function isIndexedEntry(e: Json): boolean {
  return (
    isString(e.type) &&
    ENTRY_TYPES.has(e.type) &&
    nonEmpty(e.id) &&
    optional(e.parentId, stringOrNull) &&
    optional(e.timestamp, isString) &&
    typeFieldsValid(e)
  );
}

function trimmedOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

function canonicalEntry(e: Json): Json {
  const common = { id: e.id, parentId: e.parentId, timestamp: e.timestamp, appendMode: e.appendMode };
  if (e.type === 'label') return { ...common, type: e.type, targetId: e.targetId, label: e.label };
  if (e.type === 'custom_message') return { ...common, type: e.type, customType: e.customType };
  if (e.type === 'message') {
    const m = e.message as Json;
    if (m.role !== 'assistant') return { ...common, type: e.type };
    const meta = isRecord(m.__openclaw) ? m.__openclaw : {};
    return {
      ...common,
      type: e.type,
      assistantRunId: trimmedOrUndefined(meta.runId),
      ...(typeof m.responseId === 'string' ? { assistantResponseId: m.responseId } : {}),
    };
  }
  return { ...common, type: e.type };
}

/** The report facts of one event, as the JSON object OpenClaw stores (undefined members dropped by stringify). */
export function reportFacts(raw: unknown): Json {
  if (isRecord(raw)) {
    const e = normalizeHookMessage(raw);
    if (isIndexedEntry(e))
      return { kind: 'canonical', hasParentId: Object.hasOwn(e, 'parentId'), entry: canonicalEntry(e) };
    if (e.type === 'leaf' && nonEmpty(e.id) && stringOrNull(e.parentId) && stringOrNull(e.targetId)) {
      const appendOk = optional(e.appendParentId, stringOrNull) && optional(e.appendMode, (v) => v === 'side');
      if (appendOk) {
        return {
          kind: 'leaf',
          entry: {
            id: e.id,
            parentId: e.parentId,
            targetId: e.targetId,
            ...(e.appendParentId !== undefined ? { appendParentId: e.appendParentId } : {}),
            ...(e.appendMode === 'side' ? { appendMode: e.appendMode } : {}),
          },
        };
      }
    }
    if (e.type !== 'session' && e.type !== 'leaf' && nonEmpty(e.id) && stringOrNull(e.parentId))
      return { kind: 'link', id: e.id, parentId: e.parentId };
  }
  return { kind: 'ignored' };
}

/**
 * `transcript_events.navigation_json` for a compressed row, as OpenClaw 2026.9.6 computes it (in SQL, over the
 * event's JSON): the facts its readers need without decoding the body.
 *
 * `{version: 1, report, navigation, reset, model, modelBytes, modelWithoutCheckpointBytes, withoutCustomDataBytes}`
 * - navigation: the event's tree and context keys, `message` reduced to role / idempotencyKey / provenance /
 *   excludeFromContext / `__openclaw` (runId, steerTargetRunId, contextFreeCommand);
 * - reset: tree keys plus timestamp, firstKeptEntryId, customType, display and `message: {role}`;
 * - model: context keys; for a message its role, provider, model, timestamp, tool-call facts and the tool calls'
 *   `{type, id, name}`, with empty command/output and placeholders; emptied content/summary for custom messages
 *   and summaries;
 * - byte counts of the event as the model sees it (storage-only fields removed) and without custom `data`.
 * Keys keep the event's own order (SQLite's json_each), added keys go last (json_set).
 */
import { isRecord } from '../../../common/guards';
import { reportFacts } from './reportFacts';

type Json = Record<string, unknown>;

const TREE_KEYS = ['type', 'id', 'parentId', 'targetId', 'appendParentId', 'appendMode'];
const CONTEXT_KEYS = new Set([
  ...TREE_KEYS,
  ...['timestamp', 'version', 'cwd', 'firstKeptEntryId', 'reason', 'tokensBefore', 'thinkingLevel', 'provider'],
  ...['modelId', 'fromId', 'customType', 'display', 'label', 'name'],
]);
const RESET_KEYS = new Set([...TREE_KEYS, 'timestamp', 'firstKeptEntryId', 'customType', 'display']);
const NAVIGATION_MESSAGE_KEYS = new Set(['role', 'idempotencyKey', 'provenance', 'excludeFromContext', '__openclaw']);
const INTERNAL_KEYS = new Set(['runId', 'steerTargetRunId', 'contextFreeCommand']);
const MESSAGE_FACT_KEYS = new Set([
  ...['role', 'provider', 'model', 'timestamp', 'excludeFromContext', 'toolCallId', 'toolUseId', 'tool_call_id'],
  ...['tool_use_id', 'callId', 'call_id', 'toolName', 'isError', 'stopReason', 'customType', 'display'],
]);
const TOOL_CALL_TYPES = new Set(['toolCall', 'toolUse', 'functionCall']);
/** `details` flag OpenClaw sets on the tool results it makes up to repair a transcript */
export const SYNTHETIC_TOOL_RESULT_KEY = 'openclawSyntheticMissingToolResult';
const SYNTHETIC_TOOL_RESULT_TEXT =
  '[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.';
/** storage-only message metadata the model never sees */
const PRIVATE_METADATA_KEYS = ['upstreamUserText'];

function pick(value: unknown, keys: ReadonlySet<string>): Json {
  const out: Json = {};
  if (isRecord(value)) for (const [k, v] of Object.entries(value)) if (keys.has(k)) out[k] = v;
  return out;
}

/** Members of an array (or the values of an object), as SQLite's json_each visits them. */
function members(value: unknown): unknown[] {
  return Array.isArray(value) ? value : isRecord(value) ? Object.values(value) : [];
}

function navigationOf(event: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(event)) {
    if (CONTEXT_KEYS.has(k)) out[k] = v;
    else if (k === 'message') {
      if (!isRecord(v)) out[k] = v;
      else {
        const m: Json = {};
        for (const [mk, mv] of Object.entries(v)) {
          if (NAVIGATION_MESSAGE_KEYS.has(mk))
            m[mk] = mk === '__openclaw' && isRecord(mv) ? pick(mv, INTERNAL_KEYS) : mv;
        }
        out[k] = m;
      }
    }
  }
  return out;
}

function messageRole(event: Json): unknown {
  return isRecord(event.message) ? (event.message.role ?? null) : null;
}

function resetOf(event: Json): Json {
  return { ...pick(event, RESET_KEYS), message: { role: messageRole(event) } };
}

function isSyntheticToolResult(message: unknown): boolean {
  if (!isRecord(message)) return false;
  const flag = isRecord(message.details) ? message.details[SYNTHETIC_TOOL_RESULT_KEY] : undefined;
  if (flag === true || flag === 1) return true;
  return members(message.content).some(
    (b) => isRecord(b) && b.type === 'text' && b.text === SYNTHETIC_TOOL_RESULT_TEXT,
  );
}

function modelOf(event: Json): Json {
  const entry = pick(event, CONTEXT_KEYS);
  switch (event.type) {
    case 'message': {
      const message = event.message;
      const facts = pick(message, MESSAGE_FACT_KEYS);
      const content = isRecord(message) ? message.content : undefined;
      facts.content = members(content)
        .filter((b) => isRecord(b) && TOOL_CALL_TYPES.has(b.type as string))
        .map((b) => ({ type: (b as Json).type ?? null, id: (b as Json).id ?? null, name: (b as Json).name ?? null }));
      facts.command = '';
      facts.output = '';
      const replay = isRecord(message) && isRecord(message.providerReplay) ? message.providerReplay.type : undefined;
      facts.providerReplay = { type: replay ?? null };
      facts.details = { [SYNTHETIC_TOOL_RESULT_KEY]: isSyntheticToolResult(message) };
      return { ...entry, message: facts };
    }
    case 'custom_message':
      return { ...entry, content: [] };
    case 'compaction':
    case 'branch_summary':
      return { ...entry, summary: '' };
    default:
      return entry;
  }
}

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

function modelBytes(eventJson: string, omitCheckpoint: boolean): number {
  const event = JSON.parse(eventJson) as Json;
  const message = event.message;
  if (isRecord(message)) {
    if (isRecord(message.__openclaw)) for (const key of PRIVATE_METADATA_KEYS) delete message.__openclaw[key];
    if (message.role === 'toolResult') delete message.details;
    if (omitCheckpoint) delete message.providerReplay;
  }
  return byteLength(event);
}

/**
 * The navigation metadata of an event, or null when OpenClaw would not compress it (not an object, or a
 * `message` member that is neither an object nor null).
 */
export function navigationJson(eventJson: string, event: unknown): string | null {
  if (!isRecord(event)) return null;
  if (event.message !== undefined && event.message !== null && !isRecord(event.message)) return null;
  const withoutData: Json = { ...event };
  delete withoutData.data;
  return JSON.stringify({
    version: 1,
    report: reportFacts(event),
    navigation: navigationOf(event),
    reset: resetOf(event),
    model: modelOf(event),
    modelBytes: modelBytes(eventJson, false),
    modelWithoutCheckpointBytes: modelBytes(eventJson, true),
    withoutCustomDataBytes: byteLength(withoutData),
  });
}

/**
 * Per turn: does ContextScope's replay reproduce what real OpenClaw did? Fields compared (names used in the table,
 * the JSON report and a scenario's `knownMismatches`):
 * - `status`: whether the prompt was sent (OpenClaw: a model request for the turn and no error);
 * - `messages.compiled`: the assembled messages against the trajectory's `context.compiled` (truncation and
 *   redaction undone as src/replay/trajectory/compareContext.ts does);
 * - `messages.wire`: the "as sent" view rendered as chat messages against the request the model received
 *   (system message and tools aside; the runtime line's host fields aside);
 * - `compaction`: how many compactions ran in the turn, their tokensBefore/tokensAfter and whether a summary exists;
 * - `engineCalls`: the plugin's logged call sequence against the one ContextScope recorded;
 * - `precheck`: the precheck decision (fits, or compact), prompt budget and reserve where OpenClaw reports them;
 * - `subagent`: whether a subagent ran in the turn (OpenClaw: its model requests; ContextScope: a replayed child lane);
 * - `systemPromptAddition`: whether the plugin's addition reached the system prompt (plugins that return one).
 */
import type { Recording, TurnRecord } from '../../src/replay';
import { compareRecordedContext } from '../../src/replay/trajectory/compareContext';
import { renderChatMessages } from '../../src/replay/wire';
import type { OpenClawTurnFacts } from './openclawFacts';
import type { ChatMessage } from './scriptedModel';

export interface FieldDifference {
  /** 1-based, as shown to a person */
  turn: number;
  field: string;
  openclaw: string;
  contextscope: string;
}

const short = (v: unknown): string => {
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return text === undefined ? '(absent)' : text.length > 160 ? `${text.slice(0, 157)}…` : text;
};

/**
 * A compaction summary's text is the model's answer to the summary request: OpenClaw's is what the scripted model
 * returned, the replay's comes from its own summarizer; its timestamp is the wall-clock time OpenClaw compacted at.
 * Whether a summary is there, and where, is compared; its words and time are not.
 */
export const SUMMARY_TEXT = '(summary text)';

function withoutSummaryText(messages: readonly unknown[]): unknown[] {
  return messages.map((m) => {
    const r = m as { role?: unknown; summary?: unknown } | null;
    return r && (r.role === 'compactionSummary' || r.role === 'branchSummary') && typeof r.summary === 'string'
      ? { ...r, summary: SUMMARY_TEXT, timestamp: SUMMARY_TEXT }
      : m;
  });
}

/** Chat content as one string (text parts joined), the runtime line reduced to the fields a replay can know. */
function normaliseContent(content: unknown): unknown {
  const text = Array.isArray(content)
    ? content.map((p: { text?: unknown }) => (typeof p?.text === 'string' ? p.text : '')).join('')
    : content;
  if (typeof text !== 'string') return text ?? null;
  return text
    .replace(/(<summary>\n)[\s\S]*?(\n?<\/summary>)/g, `$1${SUMMARY_TEXT}$2`)
    .replace(/(\n\n)?Runtime: ([^\n]*)$/, (_all, gap: string | undefined, fields: string) => {
      const kept = fields.split(' | ').filter((f) => /^(agent|session|sessionId)=/.test(f));
      return `${gap ?? ''}Runtime: ${kept.join(' | ')}`;
    });
}

export function normaliseChat(messages: readonly ChatMessage[]): unknown[] {
  return messages.map((m) => ({
    role: m.role,
    content: normaliseContent(m.content),
    ...(m.tool_calls?.length
      ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })) }
      : {}),
    ...(m.tool_call_id ? { tool_call_id: m.tool_call_id } : {}),
  }));
}

function firstDifferingIndex(a: unknown[], b: unknown[]): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) return i;
  return -1;
}

function compareWire(
  facts: OpenClawTurnFacts,
  record: TurnRecord,
  recording: Recording,
): [string, string] | null | undefined {
  if (!facts.wire || !record.asSent) return undefined; // status says which side sent nothing
  const ours = normaliseChat(
    renderChatMessages(record.asSent, (key) => recording.messages[key]?.message) as ChatMessage[],
  );
  const theirs = normaliseChat(facts.wire);
  const at = firstDifferingIndex(theirs, ours);
  if (at < 0) return null;
  return [
    `[${at}] ${short(theirs[at] ?? `(${theirs.length} messages)`)}`,
    `[${at}] ${short(ours[at] ?? `(${ours.length} messages)`)}`,
  ];
}

/**
 * The replay's compactions OpenClaw writes to the session: not a recorded one, and not one an engine that owns
 * compaction ran itself — OpenClaw writes no entry for those (the engine keeps its own state); the engine calls
 * compare them.
 */
function compactionsOf(record: TurnRecord) {
  const ownedBy = record.engine.ownsCompaction ? record.engine.engineId : null;
  return record.events.flatMap((e) =>
    e.type === 'compaction' && e.trigger !== 'recorded' && e.engineId !== ownedBy && e.compacted
      ? [
          {
            tokensBefore: e.tokensBefore ?? null,
            tokensAfter: e.tokensAfter ?? null,
            firstKeptEntryId: e.firstKeptEntryId ?? null,
            hasSummary: Boolean(e.summary),
          },
        ]
      : [],
  );
}

/** count, tokensBefore, tokensAfter (where OpenClaw writes it), the first kept entry and a summary's presence */
function compareCompactions(facts: OpenClawTurnFacts, record: TurnRecord): [string, string] | null {
  const ours = compactionsOf(record);
  const theirs = facts.compactions.map((c, i) => ({
    tokensBefore: c.tokensBefore,
    tokensAfter: c.tokensAfter,
    firstKeptEntryId: c.firstKeptEntryId,
    hasSummary: c.hasSummary,
    ...(c.tokensAfter === null && ours[i] ? { tokensAfter: ours[i].tokensAfter } : {}),
  }));
  return JSON.stringify(theirs) === JSON.stringify(ours) ? null : [short(theirs), short(ours)];
}

/** route (compact routes as one), prompt budget and reserve; the estimate is shown, not compared. */
function comparePrecheck(facts: OpenClawTurnFacts, record: TurnRecord): [string, string] | null | undefined {
  if (facts.precheckRoute === null) return undefined;
  const p = record.precheck;
  const ours = {
    route: p?.shouldCompact ? 'compact' : (p?.route ?? 'skipped'),
    ...(facts.precheckBudget && p ? { budget: p.promptBudgetBeforeReserve, reserve: p.effectiveReserveTokens } : {}),
  };
  const b = facts.precheckBudget;
  const theirs = {
    route:
      facts.precheckRoute === 'compact' || facts.precheckRoute.startsWith('compact') ? 'compact' : facts.precheckRoute,
    ...(b && p ? { budget: b.promptBudgetBeforeReserve, reserve: b.effectiveReserveTokens } : {}),
  };
  if (JSON.stringify(theirs) === JSON.stringify(ours)) return null;
  const est = (n: number | undefined) => (n === undefined ? '' : ` est=${n}`);
  return [short(theirs) + est(b?.estimatedPromptTokens), short(ours) + est(p?.estimatedTokens)];
}

export interface TurnComparison {
  differences: FieldDifference[];
  /** the fields that were compared in this turn (a field is skipped when one side has nothing to compare) */
  checked: string[];
}

export function compareTurn(
  facts: OpenClawTurnFacts,
  record: TurnRecord | undefined,
  recording: Recording,
  /** the plugin's own log of the replay's calls this turn (plugin scenarios), else null */
  replayedCalls: string[] | null,
  /** the systemPromptAddition the scenario's plugin returns, if any */
  addition?: string,
): TurnComparison {
  const turn = facts.turn + 1;
  const out: FieldDifference[] = [];
  const checked: string[] = [];
  const add = (field: string, pair: [string, string] | null | undefined) => {
    if (pair === undefined) return;
    checked.push(field);
    if (pair) out.push({ turn, field, openclaw: pair[0], contextscope: pair[1] });
  };
  if (!record) {
    const theirs = facts.wire && !facts.error ? 'sent' : `not sent (${facts.error ?? 'no request'}), prompt not stored`;
    const missing = {
      turn,
      field: 'status',
      openclaw: theirs,
      contextscope: '(no such turn in the session OpenClaw wrote)',
    };
    return { differences: [missing], checked: ['status'] };
  }
  const sent =
    facts.wire !== null && facts.error === null ? 'sent' : `not sent${facts.error ? `: ${facts.error}` : ''}`;
  const oursSent =
    record.status === 'ok' ? 'sent' : `not sent: ${record.status}${record.error ? ` ${record.error}` : ''}`;
  add('status', sent.startsWith('sent') === oursSent.startsWith('sent') ? null : [sent, oursSent]);
  if (facts.compiled && record.status === 'ok') {
    const replayed = record.assembled.map((a) => recording.messages[a.key]?.message);
    const c = compareRecordedContext(withoutSummaryText(facts.compiled), withoutSummaryText(replayed));
    const d = c.difference;
    add(
      'messages.compiled',
      c.exact || !d ? null : [`[${d.index}] ${d.field}: ${d.recorded}`, `[${d.index}] ${d.field}: ${d.replayed}`],
    );
  }
  add('messages.wire', compareWire(facts, record, recording));
  add('compaction', compareCompactions(facts, record));
  if (replayedCalls) {
    const [theirs, ours] = [facts.engineCalls.join(','), replayedCalls.join(',')];
    add('engineCalls', theirs === ours ? null : [theirs || '(none)', ours || '(none)']);
  }
  add('precheck', comparePrecheck(facts, record));
  const spawned = record.events.some((e) => e.type === 'subagentSpawn' && Boolean(e.childLane));
  if (facts.subagentRequests > 0 || spawned) {
    const theirs = facts.subagentRequests > 0 ? 'a subagent ran' : 'no subagent';
    add(
      'subagent',
      theirs === (spawned ? 'a subagent ran' : 'no subagent')
        ? null
        : [theirs, spawned ? 'a subagent ran' : 'no subagent'],
    );
  }
  if (addition && facts.systemPrompt !== null) {
    const theirs = facts.systemPrompt.includes(addition) ? 'in the system prompt' : 'not in the system prompt';
    const ours = record.systemPromptAddition?.includes(addition) ? 'in the system prompt' : 'not in the system prompt';
    add('systemPromptAddition', theirs === ours ? null : [theirs, ours]);
  }
  return { differences: out, checked };
}

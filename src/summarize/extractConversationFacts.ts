/**
 * Extractive reading of a conversation for the deterministic summarizer: user requests and stated constraints,
 * tool work done / pending / failed, decisions and next steps the assistant announced, and every opaque
 * identifier. One pass over the messages; nothing is paraphrased, only selected and clipped.
 */
import type { AgentMessage } from '../contract';
import { getCompactionContent } from '../tokens';
import { isRuntimeContextCarrier } from '../transcripts';
import { extractIdentifiers } from './extractIdentifiers';
import {
  emptyHistorySections,
  mergeHistorySections,
  mergeItems,
  parseSummarySections,
  type HistorySections,
} from './summarySections';

export interface ConversationFacts {
  sections: HistorySections;
  /** user request texts, in order */
  userRequests: string[];
  /** first sentence of each assistant text, in order */
  assistantStatements: string[];
}

/**
 * ConversationFacts with the identifiers of Critical Context left out of `sections.critical` and read only as far as
 * they are pulled: the summaries keep the first few dozen Critical Context items, so most identifiers are never used.
 */
export interface ConversationReading extends ConversationFacts {
  /** identifiers the user/assistant wrote, then those found in tool output (repeats possible), to follow `sections.critical` */
  identifiers: Iterable<string>;
}

const MAX_ITEM_CHARS = 240;
const CONSTRAINT_RE =
  /\b(must|must not|mustn't|should|shouldn't|do not|don't|never|always|prefer|preferably|avoid|only use|make sure|without|keep)\b/i;
const DECISION_RE =
  /\b(decided|decide to|chose|choose to|will use|going to use|instead of|switch(?:ed|ing)? to|opt(?:ed)? for|settled on|the approach|we'll go with|i'll go with)\b/i;
const NEXT_STEP_RE = /\b(next,? i|next step|then i|i'll|i will|still need|remaining|todo|to do:|will now|let me)\b/i;
const PRIMARY_ARG_KEYS = ['path', 'file_path', 'filePath', 'file', 'command', 'cmd', 'url', 'query', 'pattern', 'name'];

function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts `text` to at most `max` chars at a word boundary, marking the cut with "…". */
export function clip(text: string, max = MAX_ITEM_CHARS): string {
  // only the first max + 1 flattened chars decide a cut: a long text's start shows them unless it is mostly blank
  const head = text.length > 2 * max + 2 ? flatten(text.slice(0, 2 * max + 2)) : undefined;
  const flat = head !== undefined && head.length > max ? head : flatten(text);
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

/** Sentences and lines of a text, trimmed, without empties. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[A-Z0-9"'`([])/)
    .map((s) => s.trim().replace(/^[-*+]\s+/, ''))
    .filter((s) => s.length >= 3);
}

function messageText(message: AgentMessage): string {
  switch (message.role) {
    case 'user':
    case 'toolResult':
    case 'custom':
      return getCompactionContent(message.content).text;
    case 'assistant':
      return (message.content ?? [])
        .map((b) => (b.type === 'text' ? b.text : ''))
        .filter(Boolean)
        .join('\n');
    case 'bashExecution':
      return `${message.command}\n${message.output}`;
    case 'compactionSummary':
    case 'branchSummary':
      return message.summary;
    default:
      return '';
  }
}

function toolCallLabel(name: string, args: Record<string, unknown> | undefined): string {
  for (const key of PRIMARY_ARG_KEYS) {
    const value = args?.[key];
    if (typeof value === 'string' && value.trim()) return clip(`${name} ${value.trim()}`, 200);
  }
  return name;
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  return clip(line, 200);
}

/** Reads `messages` into summary sections (plus the raw requests/statements the turn-prefix variant needs). */
export function extractConversationFacts(messages: readonly AgentMessage[], focus?: string): ConversationFacts {
  const reading = readConversation(messages, focus);
  return {
    sections: { ...reading.sections, critical: mergeItems(reading.sections.critical, [...reading.identifiers]) },
    userRequests: reading.userRequests,
    assistantStatements: reading.assistantStatements,
  };
}

/** `extractConversationFacts` with the identifiers read lazily. */
export function readConversation(messages: readonly AgentMessage[], focus?: string): ConversationReading {
  const reading = startReading(focus);
  messages.forEach((message, index) => readMessage(reading, message, index));
  return finishReading(reading, focus);
}

/** What one pass over the messages has gathered so far. */
interface ReadingState {
  s: HistorySections;
  userRequests: string[];
  assistantStatements: string[];
  /** tool calls without a result yet: id → label */
  pendingCalls: Map<string, string>;
  // identifiers the user/assistant wrote come before those found in tool output
  identifierText: string[];
  outputIdentifierText: string[];
  focusWords: string[];
  focusHits: string[];
  embeddedSummaries: HistorySections;
  // announced next steps only count from the latest assistant text: older ones were overtaken by events
  latestNextSteps: string[];
  lastUserIndex: number;
  lastAssistantTextIndex: number;
}

function startReading(focus: string | undefined): ReadingState {
  return {
    s: emptyHistorySections(),
    userRequests: [],
    assistantStatements: [],
    pendingCalls: new Map(),
    identifierText: [],
    outputIdentifierText: [],
    focusWords: (focus ?? '')
      .toLowerCase()
      .split(/[^\p{L}\p{N}_-]+/u)
      .filter((w) => w.length >= 5),
    focusHits: [],
    embeddedSummaries: emptyHistorySections(),
    latestNextSteps: [],
    lastUserIndex: -1,
    lastAssistantTextIndex: -1,
  };
}

function readMessage(r: ReadingState, message: AgentMessage, index: number): void {
  if ((message as { excludeFromContext?: unknown }).excludeFromContext === true) return;
  // (a boolean, not the type guard: a custom message that is not a carrier must stay a custom message here)
  const isCarrier: boolean = isRuntimeContextCarrier(message);
  if (isCarrier) return;
  const text = messageText(message);
  collectIdentifierText(r, message, text);
  collectFocusHits(r, text);
  switch (message.role) {
    case 'user':
    case 'custom':
      readUserRequest(r, text, index);
      break;
    case 'assistant':
      readAssistantMessage(r, message, text, index);
      break;
    case 'toolResult':
      readToolResult(r, message, text);
      break;
    case 'bashExecution':
      readBashExecution(r, message);
      break;
    case 'compactionSummary':
    case 'branchSummary':
      r.embeddedSummaries = mergeHistorySections(r.embeddedSummaries, parseSummarySections(message.summary));
      break;
  }
}

function collectIdentifierText(r: ReadingState, message: AgentMessage, text: string): void {
  if (message.role === 'toolResult') r.outputIdentifierText.push(text);
  else if (message.role === 'bashExecution') {
    r.identifierText.push(message.command);
    r.outputIdentifierText.push(message.output);
  } else r.identifierText.push(text);
}

function collectFocusHits(r: ReadingState, text: string): void {
  if (r.focusWords.length === 0) return;
  for (const sentence of splitSentences(text)) {
    const lower = sentence.toLowerCase();
    if (r.focusWords.some((w) => lower.includes(w))) r.focusHits.push(clip(sentence));
  }
}

function readUserRequest(r: ReadingState, text: string, index: number): void {
  const request = text.trim();
  if (!request) return;
  r.userRequests.push(request);
  r.lastUserIndex = index;
  for (const sentence of splitSentences(request))
    if (CONSTRAINT_RE.test(sentence)) r.s.constraints.push(clip(sentence));
}

function readAssistantMessage(
  r: ReadingState,
  message: Extract<AgentMessage, { role: 'assistant' }>,
  text: string,
  index: number,
): void {
  for (const block of message.content ?? []) {
    if (block.type === 'toolCall') {
      r.identifierText.push(JSON.stringify(block.arguments ?? {}));
      r.pendingCalls.set(block.id, toolCallLabel(block.name, block.arguments));
    }
  }
  if (message.stopReason === 'error' && message.errorMessage)
    r.s.blocked.push(clip(`assistant error: ${message.errorMessage}`));
  const sentences = splitSentences(text);
  if (sentences.length > 0) {
    r.assistantStatements.push(clip(sentences[0]!));
    r.lastAssistantTextIndex = index;
    r.latestNextSteps = [];
  }
  for (const sentence of sentences) {
    if (DECISION_RE.test(sentence)) r.s.decisions.push(clip(sentence));
    else if (NEXT_STEP_RE.test(sentence)) r.latestNextSteps.push(clip(sentence));
  }
}

function readToolResult(r: ReadingState, message: Extract<AgentMessage, { role: 'toolResult' }>, text: string): void {
  const label = r.pendingCalls.get(message.toolCallId) ?? message.toolName;
  r.pendingCalls.delete(message.toolCallId);
  if (message.isError) r.s.blocked.push(clip(`${label}: ${firstLine(text) || 'failed'}`));
  else r.s.done.push(label);
}

function readBashExecution(r: ReadingState, message: Extract<AgentMessage, { role: 'bashExecution' }>): void {
  const failed = message.cancelled || (typeof message.exitCode === 'number' && message.exitCode !== 0);
  if (failed) {
    const why = message.cancelled ? 'cancelled' : `exit code ${message.exitCode}`;
    r.s.blocked.push(clip(`\`${message.command}\` (${why}): ${firstLine(message.output)}`));
  } else r.s.done.push(clip(`ran \`${message.command}\``, 200));
}

/** Turns what was gathered into sections: pending calls, next steps, the goal and the requested focus. */
function finishReading(r: ReadingState, focus: string | undefined): ConversationReading {
  const { s, userRequests } = r;
  for (const label of r.pendingCalls.values()) s.inProgress.push(label);
  // an announced step whose tool call has since completed ("I will write a.ts" then write a.ts) is done, not next
  const doneTargets = s.done
    .filter((label) => label.includes(' '))
    .map((label) => label.slice(label.indexOf(' ') + 1).toLowerCase())
    .filter((target) => target.length > 2);
  s.nextSteps.push(
    ...r.latestNextSteps.filter((step) => !doneTargets.some((target) => step.toLowerCase().includes(target))),
  );
  if (userRequests.length > 0) {
    s.goal.push(clip(userRequests[0]!));
    const latest = userRequests[userRequests.length - 1]!;
    if (userRequests.length > 1) s.goal.push(clip(`Latest request: ${latest}`));
    // the last request has no assistant reply yet: it is the next step
    if (r.lastUserIndex > r.lastAssistantTextIndex) s.nextSteps.unshift(clip(`Answer the latest request: ${latest}`));
  }
  if (focus?.trim()) s.critical.push(clip(`Requested focus: ${focus.trim()}`));
  s.critical.push(...r.focusHits);

  const { identifierText, outputIdentifierText } = r;
  return {
    sections: mergeHistorySections(r.embeddedSummaries, s),
    userRequests,
    assistantStatements: r.assistantStatements,
    identifiers: {
      *[Symbol.iterator]() {
        yield* extractIdentifiers(identifierText.join('\n'));
        yield* extractIdentifiers(outputIdentifierText.join('\n'));
      },
    },
  };
}

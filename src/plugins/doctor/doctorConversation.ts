/**
 * The conversation the doctor drives engines with: a realistic session from the seeded generator (several turns,
 * assistant tool calls with their results, results of a few thousand characters, thinking blocks), so what an
 * engine does to real history shows — how it windows or prunes tool results, whether its estimate tracks the size
 * it returns, whether its compact() has something to compact. The last turn is the one driven: the history before
 * its user prompt is what assemble() gets, its messages are the turn's reply; the token budget is three quarters
 * of the history (a session just past its budget), so an engine that windows or summarises has to drop some. A throwaway JSONL v3 transcript
 * holds the history for bootstrap() and the compact probe.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentMessage, SessionEntry, SessionHeader } from '../../contract';
import { estimateMessagesTokens } from '../../tokens';
import { generateSession, getActivePath, projectSessionEntryMessage, serializeSessionEntries } from '../../transcripts';

export interface DoctorConversation {
  /** the messages before the driven turn's prompt (what assemble() is given) */
  history: AgentMessage[];
  /** the driven turn's user prompt */
  prompt: string;
  /** the driven turn's messages after its prompt (assistant replies, tool results) */
  reply: AgentMessage[];
  /** the transcript entries of the history (root first) */
  entries: SessionEntry[];
  header: SessionHeader;
  /** the budget assemble() and compact() are given: three quarters of the history's estimate */
  tokenBudget: number;
}

const TURNS = 8;
const SEED = 'contextscope-doctor';

let cached: DoctorConversation | undefined;

function textOf(message: AgentMessage): string {
  const content = (message as { content?: unknown }).content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b: { type?: string; text?: string }) => (b.type === 'text' ? (b.text ?? '') : '')).join('');
}

/** The doctor's conversation (generated once per process; the same every time). */
export function doctorConversation(): DoctorConversation {
  if (cached) return cached;
  const session = generateSession({
    turns: TURNS,
    seed: SEED,
    images: false,
    compaction: false,
    branch: false,
    subagents: 0,
  }).sessions[0]!;
  const path = getActivePath({ entries: session.entries, leafId: session.entries.at(-1)?.id ?? null });
  const lastUser = path.findLastIndex((e) => e.type === 'message' && e.message.role === 'user');
  const messagesOf = (entries: readonly SessionEntry[]) =>
    entries.map((e) => projectSessionEntryMessage(e)).filter((m): m is AgentMessage => m !== undefined && m !== null);
  const entries = path.slice(0, lastUser);
  const history = messagesOf(entries);
  cached = {
    history,
    prompt: textOf(messagesOf([path[lastUser]!])[0]!),
    reply: messagesOf(path.slice(lastUser + 1)),
    entries,
    header: session.header,
    tokenBudget: Math.floor((estimateMessagesTokens(history) * 3) / 4),
  };
  return cached;
}

/** Writes the conversation's history as an OpenClaw v3 session file named for `sessionId`; returns its path. */
export function writeDoctorTranscript(dir: string, sessionId: string): string {
  const { header, entries } = doctorConversation();
  const file = join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, serializeSessionEntries({ ...header, id: sessionId, cwd: dir }, entries));
  return file;
}

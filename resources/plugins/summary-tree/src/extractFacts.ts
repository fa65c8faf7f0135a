// The deterministic, extractive summarizer: it keeps what a later turn most often needs — what the user asked,
// which tools ran, which files came up, and where the assistant left off — and nothing it would have to invent.
// Pure functions; the same messages always give the same facts and the same text.

import type { AgentMessage } from './types.ts';

export interface ChunkFacts {
  /** First sentence of each user request, in order (capped; see MAX_ASKS). */
  asks: string[];
  /** Total user requests seen, including those dropped by the cap. */
  askCount: number;
  /** Tool name → number of calls, in order of first use. */
  tools: [string, number][];
  /** File paths mentioned, in order of first mention (capped; see MAX_FILES). */
  files: string[];
  fileCount: number;
  /** First sentence of the last assistant text reply. */
  lastReply?: string;
  messageCount: number;
}

const SENTENCE_CHARS = 160;
const MAX_ASKS = 12;
const MAX_FILES = 24;
const PATH_ARGUMENT_KEYS = new Set(['path', 'file', 'file_path', 'filePath', 'filename', 'target', 'cwd', 'paths']);
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
// "src/engine.ts", "./a/b", "/etc/hosts", "~/x/y.md", or a bare "README.md"-style name with a known extension.
const PATH_PATTERN =
  /(?:~|\.{1,2})?\/?(?:[\w@.-]+\/)+[\w@.-]+|\b[\w@-]+\.(?:ts|tsx|js|jsx|mjs|cjs|json|json5|jsonl|md|py|rs|go|java|rb|yml|yaml|toml|sh|css|html|txt|sql|lock|env)\b/g;

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, Math.max(0, maxChars - 1)).trimEnd()}…`;
}

/** The first sentence (or first line) of a text, whitespace-collapsed and truncated. */
export function firstSentence(text: string): string {
  const firstLine = text.trim().split(/\n/, 1)[0] ?? '';
  const match = /^(.+?[.!?])(?:\s|$)/.exec(firstLine);
  return truncate(collapse(match ? match[1] : firstLine), SENTENCE_CHARS);
}

function textOf(message: AgentMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!Array.isArray(message.content)) return '';
  return message.content.flatMap((block) => (block && block.type === 'text' ? [block.text] : [])).join('\n');
}

function pathsInText(text: string): string[] {
  const withoutUrls = text.replace(URL_PATTERN, ' ');
  const found = withoutUrls.match(PATH_PATTERN) ?? [];
  // Drop trailing punctuation picked up from prose ("see src/a.ts." → "src/a.ts").
  return found.map((p) => p.replace(/[.,:;]+$/, '')).filter((p) => p.length > 2 && !/^\.+\/?$/.test(p));
}

function pathsInArguments(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (!PATH_ARGUMENT_KEYS.has(key)) continue;
    if (typeof value === 'string' && value.trim() !== '') out.push(value.trim());
    else if (Array.isArray(value))
      for (const v of value) if (typeof v === 'string' && v.trim() !== '') out.push(v.trim());
  }
  return out;
}

export function extractFacts(messages: AgentMessage[]): ChunkFacts {
  const asks: string[] = [];
  let askCount = 0;
  const tools = new Map<string, number>();
  const files = new Set<string>();
  let lastReply: string | undefined;

  const addFiles = (paths: string[]) => {
    for (const p of paths) files.add(p);
  };

  for (const message of messages) {
    switch (message.role) {
      case 'user': {
        const text = textOf(message);
        if (text.trim() !== '') {
          askCount++;
          if (asks.length < MAX_ASKS) asks.push(firstSentence(text));
        }
        addFiles(pathsInText(text));
        break;
      }
      case 'assistant': {
        if (!Array.isArray(message.content)) break;
        for (const block of message.content) {
          if (block?.type === 'toolCall') {
            tools.set(block.name, (tools.get(block.name) ?? 0) + 1);
            addFiles(pathsInArguments(block.arguments ?? {}));
          }
        }
        const text = textOf(message);
        if (text.trim() !== '') {
          lastReply = firstSentence(text);
          addFiles(pathsInText(text));
        }
        break;
      }
      case 'bashExecution':
        tools.set('bash', (tools.get('bash') ?? 0) + 1);
        addFiles(pathsInText(message.command ?? ''));
        break;
      case 'compactionSummary':
      case 'branchSummary':
        askCount++;
        if (asks.length < MAX_ASKS) asks.push(`(earlier summary) ${firstSentence(message.summary ?? '')}`);
        break;
      default:
        // toolResult output is left out on purpose: directory listings and logs would flood the file list.
        break;
    }
  }

  const fileList = [...files];
  return {
    asks,
    askCount,
    tools: [...tools.entries()],
    files: fileList.slice(0, MAX_FILES),
    fileCount: fileList.length,
    lastReply,
    messageCount: messages.length,
  };
}

/** Facts of several consecutive chunks as if they were one: keeps the earliest and latest asks. */
export function mergeFacts(parts: ChunkFacts[]): ChunkFacts {
  const allAsks = parts.flatMap((p) => p.asks);
  const half = MAX_ASKS / 2;
  const asks = allAsks.length <= MAX_ASKS ? allAsks : [...allAsks.slice(0, half), ...allAsks.slice(-half)];
  const tools = new Map<string, number>();
  const files = new Set<string>();
  for (const part of parts) {
    for (const [name, count] of part.tools) tools.set(name, (tools.get(name) ?? 0) + count);
    for (const file of part.files) files.add(file);
  }
  const fileList = [...files];
  const lastReply = [...parts].reverse().find((p) => p.lastReply !== undefined)?.lastReply;
  return {
    asks,
    askCount: parts.reduce((sum, p) => sum + p.askCount, 0),
    tools: [...tools.entries()],
    files: fileList.slice(0, MAX_FILES),
    fileCount: Math.max(
      fileList.length,
      parts.reduce((max, p) => Math.max(max, p.fileCount), 0),
    ),
    lastReply,
    messageCount: parts.reduce((sum, p) => sum + p.messageCount, 0),
  };
}

export function renderFacts(facts: ChunkFacts, maxChars: number): string {
  const lines: string[] = [];
  if (facts.asks.length > 0) {
    const more = facts.askCount - facts.asks.length;
    lines.push(`User asked: ${facts.asks.map((a) => `"${a}"`).join('; ')}${more > 0 ? ` (+${more} more)` : ''}`);
  }
  if (facts.tools.length > 0) {
    lines.push(`Tools used: ${facts.tools.map(([name, count]) => (count > 1 ? `${name}×${count}` : name)).join(', ')}`);
  }
  if (facts.files.length > 0) {
    const more = facts.fileCount - facts.files.length;
    lines.push(`Files: ${facts.files.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`);
  }
  if (facts.lastReply) lines.push(`Assistant last said: "${facts.lastReply}"`);
  if (lines.length === 0) lines.push(`${facts.messageCount} message(s) with no user text or tool activity.`);
  return truncate(lines.join('\n'), maxChars);
}

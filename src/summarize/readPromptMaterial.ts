/**
 * What an offline stand-in for an LLM should summarize in a completion request. Plugins often send one user
 * message: an instruction paragraph ("Summarize the following in at most 400 tokens."), a blank line, then the
 * material — a conversation rendered as text, one message per paragraph with a speaker prefix (`User: …`,
 * `Assistant: …`, `Tool result (read): …`, or OpenClaw's `[User]: …` style), or earlier summaries to condense
 * (`Part 1:` …). Read literally, the instruction would become the summary's goal and condensed summaries would
 * nest inside each other; read this way, the stand-in summarizes what a model would.
 *
 * - The first paragraph of the first user message is the instruction when the paragraphs after it are such
 *   material (at least one has a speaker prefix or is an earlier summary); otherwise every paragraph is content.
 * - A paragraph with a speaker prefix starts a message of that role; paragraphs without one continue the
 *   previous message (or, before any, are material of the request's own role).
 * - A paragraph starting `Part N:` (or `Earlier summary:`) is an earlier summary.
 * - Assistant messages of the request are kept as they are.
 */
import type { AgentMessage, LlmCompleteParams } from '../contract';

export interface PromptMaterial {
  messages: AgentMessage[];
  /** earlier summaries the request asks to condense, in order */
  summaries: string[];
}

const SPEAKER = /^\[?(user|assistant|tool result|tool|shell)(?: \(([^)\n]*)\))?\]?:[ \t]?/i;
const EARLIER_SUMMARY = /^(?:part \d+|earlier summary):[ \t]*\n?/i;

type Current =
  | { kind: 'message'; role: 'user' | 'assistant' | 'toolResult'; toolName?: string; text: string }
  | { kind: 'summary'; text: string };

export function readPromptMaterial(params: LlmCompleteParams): PromptMaterial {
  const messages: AgentMessage[] = [];
  const summaries: string[] = [];
  let current: Current | undefined;
  let timestamp = 0;
  const finish = () => {
    if (!current) return;
    const text = current.text.trim();
    if (current.kind === 'summary') summaries.push(text);
    else if (current.role === 'user') messages.push({ role: 'user', content: text, timestamp: timestamp++ });
    else if (current.role === 'assistant')
      messages.push({ role: 'assistant', content: [{ type: 'text', text }], timestamp: timestamp++ } as AgentMessage);
    else {
      messages.push({
        role: 'toolResult',
        toolCallId: `prompt-${timestamp}`,
        toolName: current.toolName ?? 'tool',
        content: [{ type: 'text', text }],
        isError: false,
        timestamp: timestamp++,
      } as AgentMessage);
    }
    current = undefined;
  };

  let firstUser = true;
  for (const m of params.messages) {
    if (m.role === 'assistant') {
      finish();
      current = { kind: 'message', role: 'assistant', text: m.content };
      finish();
      continue;
    }
    if (m.role !== 'user') continue;
    const paragraphs = m.content.split(/\n[ \t]*\n/);
    const skipInstruction = firstUser && paragraphs.slice(1).some((p) => SPEAKER.test(p) || EARLIER_SUMMARY.test(p));
    firstUser = false;
    paragraphs.forEach((paragraph, i) => {
      if (i === 0 && skipInstruction) return;
      const speaker = SPEAKER.exec(paragraph);
      const summary = speaker ? null : EARLIER_SUMMARY.exec(paragraph);
      if (speaker) {
        finish();
        const who = speaker[1]!.toLowerCase();
        const role = who === 'user' ? 'user' : who === 'assistant' ? 'assistant' : 'toolResult';
        current = { kind: 'message', role, text: paragraph.slice(speaker[0].length) };
        if (role === 'toolResult') current.toolName = speaker[2] ?? (who === 'shell' ? 'bash' : 'tool');
      } else if (summary) {
        finish();
        current = { kind: 'summary', text: paragraph.slice(summary[0].length) };
      } else if (current) {
        current.text += `\n\n${paragraph}`;
      } else {
        current = { kind: 'message', role: 'user', text: paragraph };
      }
    });
    finish();
  }
  return { messages, summaries };
}

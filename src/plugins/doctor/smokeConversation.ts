/**
 * The tiny synthetic conversation the doctor drives engines with: a user request, an assistant tool call and
 * its tool result — enough to reveal dropped tool results, an assistant-first context and estimate drift —
 * and a throwaway JSONL v3 transcript holding it for bootstrap() and the compact probe.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentMessage, SessionHeader } from '../../contract';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);

const NOTES = [
  'Project notes, week 12.',
  'Decided: keep the SQLite store; move summaries to a background queue.',
  'Open question 1: how many recent turns should stay verbatim after compaction?',
  'Open question 2: should tool results older than a day be elided or summarised?',
  'Open question 3: who owns the migration of the old JSON state files?',
  'Risks: the summariser times out on very long tool outputs; the budget math ignores images.',
  'Next: measure assemble latency on the 2k-message session and write the rollout plan.',
].join('\n');

export const SMOKE_TOOL_CALL_ID = 'doctor_call_1';

/** The token budget the smoke calls pass: ample for the small synthetic conversation. */
export const SMOKE_TOKEN_BUDGET = 100_000;

export function smokeMessages(): AgentMessage[] {
  return [
    { role: 'user', content: 'Please read notes.txt and list the open questions.', timestamp: T0 },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'I will read the file first.' },
        { type: 'toolCall', id: SMOKE_TOOL_CALL_ID, name: 'read', arguments: { path: 'notes.txt' } },
      ],
      provider: 'doctor',
      model: 'doctor-smoke',
      stopReason: 'toolUse',
      timestamp: T0 + 1000,
    },
    {
      role: 'toolResult',
      toolCallId: SMOKE_TOOL_CALL_ID,
      toolName: 'read',
      content: [{ type: 'text', text: NOTES }],
      isError: false,
      timestamp: T0 + 2000,
    },
  ];
}

/** The assistant's final answer: the message the smoke turn adds after assemble. */
export function smokeReply(): AgentMessage {
  return {
    role: 'assistant',
    content: [
      {
        type: 'text',
        text: 'Open questions: verbatim turns after compaction, eliding old tool results, and who migrates the JSON state files.',
      },
    ],
    provider: 'doctor',
    model: 'doctor-smoke',
    stopReason: 'stop',
    timestamp: T0 + 3000,
  };
}

/** Writes the smoke conversation as an OpenClaw v3 session file; returns its path. */
export function writeSmokeTranscript(dir: string, sessionId: string): string {
  const file = join(dir, `${sessionId}.jsonl`);
  const header: SessionHeader = {
    type: 'session',
    version: 3,
    id: sessionId,
    timestamp: new Date(T0).toISOString(),
    cwd: dir,
  };
  const lines = [JSON.stringify(header)];
  let parentId: string | null = null;
  smokeMessages().forEach((message, i) => {
    const id = `doctor-entry-${i + 1}`;
    lines.push(
      JSON.stringify({ type: 'message', id, parentId, timestamp: new Date(T0 + i * 1000).toISOString(), message }),
    );
    parentId = id;
  });
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

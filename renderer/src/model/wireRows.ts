/**
 * The "as sent" rows of a turn (TurnRecord.asSent): each message OpenClaw sends to the model, with the text
 * OpenClaw adds to it (timestamp stamp, runtime line) kept apart so the view can mark it. Pure.
 */
import type { TurnDetail } from './turnDetail';

export interface WireRow {
  index: number;
  role: 'user' | 'assistant' | 'tool';
  origin: 'assembled' | 'prompt' | 'host';
  /** added by OpenClaw before the message text */
  prefix: string;
  /** what OpenClaw's trajectory recorded before the prompt (after the stamp), never stored in the transcript */
  recordedPrefix: string;
  /** the message text as the engine assembled it (or the whole host message) */
  body: string;
  /** added by OpenClaw after it */
  suffix: string;
}

export function wireRows(detail: TurnDetail): WireRow[] | null {
  const view = detail.record.asSent;
  if (!view) return null;
  const texts = new Map<string, string>();
  for (const row of [...detail.assembled, ...detail.newMessages]) texts.set(row.key, row.text);
  return view.messages.map((m, index) => ({
    index,
    role: m.role,
    origin: m.origin,
    prefix: m.prefix ?? '',
    recordedPrefix: m.recordedPrefix ?? '',
    body: m.key === null ? (m.text ?? '') : (texts.get(m.key) ?? `(message ${m.key} is not in the recording)`),
    suffix: m.suffix ?? '',
  }));
}

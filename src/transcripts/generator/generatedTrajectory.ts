/**
 * Trajectory rows for a generated session, in the shape OpenClaw 2026.9.6 records them
 * (`trajectory_runtime_events`: `{traceSchema: "openclaw-trajectory", schemaVersion: 1, type, ts, seq, runId, …,
 * data}`): per user turn one run with `session.started`, `prompt.submitted`, `model.completed` (usage, stop
 * reason, assistant texts) and `session.ended`. There is no `context.compiled`: the generator models no system
 * prompt or tool list, so what OpenClaw compiled cannot be made up honestly.
 */
import { createHash } from 'node:crypto';
import type { AssistantMessage, SessionEntry, SessionHeader } from '../../contract';
import type { TrajectoryEventSpec } from '../sqlite/writer/agentDatabaseSpec';

function runIdOf(sessionId: string, turn: number): string {
  const h = createHash('sha256').update(`run:${sessionId}:${turn}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((b: { type?: string; text?: string }) => (b?.type === 'text' && b.text ? [b.text] : []))
    .join('\n');
}

interface Turn {
  prompt: string;
  images: number;
  startedAt: number;
  final?: AssistantMessage;
  endedAt?: number;
}

function turnsOf(entries: readonly SessionEntry[]): Turn[] {
  const turns: Turn[] = [];
  for (const e of entries) {
    if (e.type !== 'message') continue;
    const m = e.message;
    if (m.role === 'user') {
      const images = Array.isArray(m.content) ? m.content.filter((b) => b.type === 'image').length : 0;
      turns.push({ prompt: textOf(m.content), images, startedAt: Date.parse(e.timestamp) });
    } else if (m.role === 'assistant' && m.stopReason === 'stop' && turns.length) {
      const turn = turns[turns.length - 1]!;
      turn.final = m;
      turn.endedAt = Date.parse(e.timestamp);
    }
  }
  return turns;
}

/** The trajectory of a generated session (`sessionKey` as stored), one run per user turn. */
export function generatedTrajectory(
  header: SessionHeader,
  entries: readonly SessionEntry[],
  sessionKey: string,
): TrajectoryEventSpec[] {
  const rows: TrajectoryEventSpec[] = [];
  turnsOf(entries).forEach((turn, i) => {
    const runId = runIdOf(header.id, i);
    const final = turn.final;
    const end = turn.endedAt ?? turn.startedAt;
    const base = (type: string, seq: number, at: number) => ({
      traceSchema: 'openclaw-trajectory',
      schemaVersion: 1,
      traceId: header.id,
      source: 'runtime',
      type,
      ts: new Date(at).toISOString(),
      seq,
      sourceSeq: seq,
      sessionId: header.id,
      sessionKey,
      runId,
      workspaceDir: header.cwd,
      provider: final?.provider,
      modelId: final?.model,
      modelApi: final?.api,
    });
    const push = (type: string, seq: number, at: number, data: Record<string, unknown>) =>
      rows.push({ runId, createdAt: at, event: { ...base(type, seq, at), data } });
    const status = final ? 'success' : 'error';
    push('session.started', 1, turn.startedAt, { trigger: 'user', sessionFile: sessionKey, workspaceDir: header.cwd });
    push('prompt.submitted', 2, turn.startedAt, { prompt: turn.prompt, messages: [], imagesCount: turn.images });
    const usage = final?.usage;
    const assistantTexts = final ? [textOf(final.content)] : [];
    push('model.completed', 3, end, { aborted: false, usage, assistantTexts, stopReason: final?.stopReason ?? null });
    push('session.ended', 4, end, { status, aborted: false, stopReason: final?.stopReason ?? null });
  });
  return rows;
}

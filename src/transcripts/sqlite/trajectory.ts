/**
 * `trajectory_runtime_events` of a SQLite session: what OpenClaw recorded per run (`session.started`,
 * `context.compiled`, `prompt.submitted`, `model.completed`, `trace.*`, `session.ended`), for every generation of
 * the loaded session, in order. JSONL sessions have none here.
 */
import { isRecord } from '../../common/guards';
import type { LoadedSession } from '../sessionParser';
import { withAgentDatabase } from './agentDatabase';
import type { SnapshotOptions } from './databaseSnapshot';

export interface TrajectoryEvent {
  /** the generation it belongs to */
  sessionId: string;
  seq: number;
  runId: string | null;
  createdAt: number;
  /** `event.type` */
  type: string | null;
  event: Record<string, unknown>;
}

/**
 * The trajectory rows of a loaded SQLite session (empty for JSONL, or a database without the table); with `type`,
 * only the events of that type (the rows are narrowed in SQL before they are parsed).
 */
export async function readTrajectoryEvents(
  loaded: LoadedSession,
  options: SnapshotOptions & { type?: string } = {},
): Promise<TrajectoryEvent[]> {
  const storage = loaded.storage;
  if (storage?.kind !== 'sqlite' || storage.archive) return [];
  const ids = storage.windows.map((w) => w.sessionId);
  const read = await withAgentDatabase(
    storage.database,
    storage.agentId,
    ({ db, ctx }) => {
      if (!ctx.schema.trajectory) return [];
      const type = options.type;
      const statement = db.prepare(
        'SELECT seq, run_id, event_json, created_at FROM trajectory_runtime_events WHERE session_id = ?' +
          (type !== undefined ? ' AND instr(event_json, ?) > 0' : '') +
          ' ORDER BY seq',
      );
      const rows = (sessionId: string) =>
        type !== undefined ? statement.all(sessionId, type) : statement.all(sessionId);
      return ids
        .flatMap((sessionId) =>
          rows(sessionId).map((r): TrajectoryEvent => {
            let event: Record<string, unknown> = {};
            try {
              const parsed: unknown = JSON.parse(String(r.event_json));
              if (isRecord(parsed)) event = parsed;
            } catch {
              // an unreadable row keeps its place with an empty event
            }
            return {
              sessionId,
              seq: Number(r.seq),
              runId: r.run_id === null ? null : String(r.run_id),
              createdAt: Number(r.created_at),
              type: typeof event.type === 'string' ? event.type : null,
              event,
            };
          }),
        )
        .filter((e) => type === undefined || e.type === type);
    },
    options,
  );
  return read.value ?? [];
}

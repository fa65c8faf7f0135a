/**
 * `contextscope replay --ndjson`: the replay as one JSON object per line, for other tools — a `header` (session,
 * lanes, options) before the first turn, a `turn` per lane-turn as it finishes (with the messages it is the first
 * to reference), a `lane` when a subagent lane joins, and a `footer` (findings and a summary) at the end.
 */
import type { LaneRecord, Recording, TurnRecord } from '../../contract/recording';
import { TurnLog, type LiveReplay, type ReplayOptions } from '../../replay';

export interface NdjsonReplay {
  hooks: Pick<ReplayOptions, 'onTurn' | 'onLive'>;
  /** writes the footer */
  finish(recording: Recording): void;
}

function laneLine(lane: LaneRecord) {
  return { type: 'lane', lane };
}

export function ndjsonReplay(write: (line: string) => void): NdjsonReplay {
  const emit = (value: unknown) => write(JSON.stringify(value) + '\n');
  let live: LiveReplay | undefined;
  const lanes = new Set<string>();
  const log = new TurnLog();
  const onTurn = (record: TurnRecord) => {
    if (!live) return;
    if (lanes.size === 0) {
      const { session, options, lanes: laneRecords } = live.partial();
      const { messageKeys: _keys, ...sessionInfo } = session;
      emit({
        type: 'header',
        session: { ...sessionInfo, turns: session.turnStarts.length },
        options,
        lanes: laneRecords,
      });
      for (const lane of laneRecords) lanes.add(lane.id);
    }
    if (!lanes.has(record.lane)) {
      const lane = live.lanes().find((l) => l.id === record.lane);
      if (lane) emit(laneLine(lane));
      lanes.add(record.lane);
    }
    const cursor = log.length;
    log.push(record);
    const { messages } = log.page(cursor, Number.MAX_SAFE_INTEGER, live.message);
    emit({ type: 'turn', lane: record.lane, turn: record.turn, record, messages });
  };
  return {
    hooks: {
      onLive: (value) => {
        live = value;
      },
      onTurn,
    },
    finish(recording) {
      const bySeverity: Record<string, number> = {};
      for (const f of recording.findings) bySeverity[f.severity] = (bySeverity[f.severity] ?? 0) + 1;
      const summary = {
        wallMs: recording.stats.wallMs,
        lanes: recording.lanes.map((lane) => ({
          id: lane.id,
          turns: recording.turns[lane.id]?.length ?? 0,
          compactions: (recording.turns[lane.id] ?? []).filter((t) => t.events.some((e) => e.type === 'compaction'))
            .length,
        })),
        findings: bySeverity,
      };
      emit({ type: 'footer', findings: recording.findings, events: recording.events, summary });
    },
  };
}

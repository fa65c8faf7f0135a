import type { ReactNode } from 'react';
import { formatCount, formatDuration } from '../formatQuantities';
import type { ExportFormat } from '../store/replayStore';
import { ExportButtons } from './ExportButtons';
import { Tag } from './Tag';
import './ReplayHeader.css';

export interface ReplayHeaderProps {
  title: string;
  /** the title's tooltip when the title is a short form (a subagent's whole key) */
  hint?: string;
  turnCount: number;
  laneCount: number;
  entryCount: number;
  wallMs: number;
  /** error and warning turns of the lanes shown, and findings outside turns (src/view problemSummary) */
  problems: { text: string; tone: 'bad' | 'warn' | 'ok'; title: string };
  exporting: ExportFormat | null;
  onExport(format: ExportFormat): void;
  /** set while the replay still runs: why export waits */
  exportWaitReason?: string;
  /** live mode: the session is followed and this many passes have been shown; Stop ends following */
  live?: { passes: number; onStop(): void };
  /** the replay is still streaming its turns: the counts are so far, and it has no duration yet */
  streaming?: boolean;
  /**
   * shown in place of the export buttons (which wait for the end anyway): a streaming replay's progress and Cancel,
   * on the title's line so that the timeline keeps the height a line of its own would take
   */
  progress?: ReactNode;
}

/** The replay's title, its size and outcome in one line, and the export buttons. */
export function ReplayHeader(props: ReplayHeaderProps) {
  const { title, turnCount, laneCount, entryCount, wallMs, problems, exporting, onExport, live, streaming, progress } =
    props;
  const waitReason = props.exportWaitReason;
  return (
    <header className="replay-view__header">
      <div className="replay-view__heading">
        <h1 className="view__title">
          Replay{' '}
          <span className="mono replay-view__session" title={props.hint ?? title}>
            {title}
          </span>
        </h1>
        <p className="replay-view__meta muted">
          <span className="mono">{formatCount(turnCount)}</span> {turnCount === 1 ? 'turn' : 'turns'}
          {streaming ? ' so far' : ''} · <span className="mono">{laneCount}</span> {laneCount === 1 ? 'lane' : 'lanes'}{' '}
          · {/* while streaming, the progress beside it says how far the replay is */}
          {!progress && (
            <>
              <span className="mono">{formatCount(entryCount)}</span> entries ·{' '}
              {streaming ? 'replaying…' : `replayed in ${formatDuration(wallMs)}`} ·{' '}
            </>
          )}
          {/* the definitions as a tooltip, not as the tag's accessible name (a paragraph for a screen reader) */}
          <span title={problems.title}>
            <Tag tone={problems.tone} text={problems.text} testId="replay-problems" />
          </span>
          {live && (
            <span data-testid="live-status" className="replay-view__live">
              {' '}
              · <Tag
                tone="info"
                text="live"
                title="Following the session: each new turn is replayed as it arrives"
              />{' '}
              following the session ({live.passes} {live.passes === 1 ? 'update' : 'updates'}){' '}
              <button type="button" className="button" onClick={live.onStop}>
                Stop following
              </button>
            </span>
          )}
        </p>
      </div>
      {progress ?? <ExportButtons busy={exporting} onExport={onExport} {...(waitReason ? { waitReason } : {})} />}
    </header>
  );
}

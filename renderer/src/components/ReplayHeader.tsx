import { formatCount, formatDuration } from '../formatQuantities';
import type { ExportFormat } from '../store/replayStore';
import { ExportButtons } from './ExportButtons';
import { Tag } from './Tag';
import './ReplayHeader.css';

export interface ReplayHeaderProps {
  title: string;
  turnCount: number;
  laneCount: number;
  entryCount: number;
  wallMs: number;
  errors: number;
  warnings: number;
  exporting: ExportFormat | null;
  onExport(format: ExportFormat): void;
}

/** The replay's title, its size and outcome in one line, and the export buttons. */
export function ReplayHeader(props: ReplayHeaderProps) {
  const { title, turnCount, laneCount, entryCount, wallMs, errors, warnings, exporting, onExport } = props;
  return (
    <header className="replay-view__header">
      <div>
        <h1 className="view__title">
          Replay <span className="mono replay-view__session">{title}</span>
        </h1>
        <p className="replay-view__meta muted">
          <span className="mono">{turnCount}</span> turns · <span className="mono">{laneCount}</span> lanes ·{' '}
          <span className="mono">{formatCount(entryCount)}</span> entries · replayed in {formatDuration(wallMs)} ·{' '}
          <Tag
            tone={errors > 0 ? 'bad' : warnings > 0 ? 'warn' : 'ok'}
            text={`${errors} errors, ${warnings} warnings`}
          />
        </p>
      </div>
      <ExportButtons busy={exporting} onExport={onExport} />
    </header>
  );
}

import './ExportButtons.css';

export interface ExportButtonsProps {
  busy: 'json' | 'html' | null;
  onExport(format: 'json' | 'html'): void;
  /** the replay is still running: nothing to export yet (the reason shows as the buttons' tooltip) */
  waitReason?: string;
}

/** Save the current recording as JSON (re-importable) or as a standalone HTML report. */
export function ExportButtons({ busy, onExport, waitReason }: ExportButtonsProps) {
  const disabled = busy !== null || waitReason !== undefined;
  return (
    <div className="export-buttons" role="group" aria-label="Export">
      <button type="button" className="button" disabled={disabled} title={waitReason} onClick={() => onExport('json')}>
        {busy === 'json' ? 'Exporting…' : 'Export JSON'}
      </button>
      <button type="button" className="button" disabled={disabled} title={waitReason} onClick={() => onExport('html')}>
        {busy === 'html' ? 'Exporting…' : 'Export HTML report'}
      </button>
    </div>
  );
}

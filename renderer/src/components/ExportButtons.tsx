import './ExportButtons.css';

export interface ExportButtonsProps {
  busy: 'json' | 'html' | null;
  onExport(format: 'json' | 'html'): void;
}

/** Save the current recording as JSON (re-importable) or as a standalone HTML report. */
export function ExportButtons({ busy, onExport }: ExportButtonsProps) {
  return (
    <div className="export-buttons" role="group" aria-label="Export">
      <button type="button" className="button" disabled={busy !== null} onClick={() => onExport('json')}>
        {busy === 'json' ? 'Exporting…' : 'Export JSON'}
      </button>
      <button type="button" className="button" disabled={busy !== null} onClick={() => onExport('html')}>
        {busy === 'html' ? 'Exporting…' : 'Export HTML report'}
      </button>
    </div>
  );
}

import { useRef, useState, type DragEvent } from 'react';
import type { RecentRecording } from '../../../src/bridge';
import { formatBytes, formatCount } from '../formatQuantities';
import './RecentRecordings.css';

export interface RecentRecordingsProps {
  entries: readonly RecentRecording[];
  currentId: string | null;
  error: string | null;
  /** where they are kept and how many at most (shown as a hint) */
  limitText: string;
  onOpen(id: string): void;
  onRemove(id: string): void;
  /** a file chosen with the button or dropped on the card: its name and text */
  onOpenFile(name: string, text: string): void;
}

function when(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function RecentList({
  entries,
  currentId,
  onOpen,
  onRemove,
}: Pick<RecentRecordingsProps, 'entries' | 'currentId' | 'onOpen' | 'onRemove'>) {
  return (
    <ul className="recent-recordings__list">
      {entries.map((entry) => (
        <li
          key={entry.id}
          className={entry.id === currentId ? 'recent-recordings__item--current' : undefined}
          data-testid="recent-recording"
        >
          <button type="button" className="button--link recent-recordings__open" onClick={() => onOpen(entry.id)}>
            <span className="mono">{entry.title}</span>
          </button>
          <span className="muted recent-recordings__meta">
            {entry.origin === 'file' ? `file ${entry.fileName ?? ''}` : 'replay'} · {entry.lanes.join(', ')} ·{' '}
            {formatCount(entry.turns)} turns · {formatBytes(entry.bytes)} · {when(entry.openedAt)}
          </span>
          <button
            type="button"
            className="button--link muted"
            aria-label={`Forget ${entry.title}`}
            onClick={() => onRemove(entry.id)}
          >
            forget
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Recordings kept across reloads (newest first) and the way to open a recording file: a button or a drop. */
export function RecentRecordings(props: RecentRecordingsProps) {
  const { entries, currentId, error, limitText, onOpen, onRemove, onOpenFile } = props;
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const readFile = (file: File | undefined) => {
    if (file) void file.text().then((text) => onOpenFile(file.name, text));
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    event.stopPropagation(); // the window's own drop handler would open it a second time
    setOver(false);
    readFile(event.dataTransfer.files[0]);
  };
  return (
    <section
      className={`card recent-recordings${over ? ' recent-recordings--over' : ''}`}
      aria-label="Recent recordings"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <div className="recent-recordings__head">
        <h2 className="card__title">Recent recordings</h2>
        <button type="button" className="button" onClick={() => input.current?.click()}>
          Open recording file…
        </button>
        <input
          ref={input}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label="Recording file"
          onChange={(event) => {
            readFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>
      {error && (
        <p className="recent-recordings__error" role="alert">
          {error}
        </p>
      )}
      {entries.length === 0 ? (
        <p className="muted">
          None yet. Finished replays are kept here; drop a recording .json (Export JSON, or{' '}
          <span className="mono">contextscope replay --json</span>) on this card to open it.
        </p>
      ) : (
        <RecentList entries={entries} currentId={currentId} onOpen={onOpen} onRemove={onRemove} />
      )}
      <p className="muted recent-recordings__limit">{limitText}</p>
    </section>
  );
}

import { useState, type ReactNode } from 'react';
import type { TurnDetail } from '../model/turnDetail';
import { wireRows, type WireRow } from '../model/wireRows';
import { TurnSection } from './TurnSection';
import './WireSection.css';

const ORIGIN_LABEL: Record<WireRow['origin'], string> = {
  assembled: 'assembled',
  prompt: 'prompt',
  host: 'added by OpenClaw',
};

/** Long bodies (tool results) are cut for the list; the stamp and runtime line are what this view is about. */
const BODY_CHARS = 1200;

function WireMessage({ row }: { row: WireRow }) {
  const body = row.body.length > BODY_CHARS ? `${row.body.slice(0, BODY_CHARS)}… (${row.body.length} chars)` : row.body;
  return (
    <li className="wire-message" data-testid="wire-message" data-origin={row.origin}>
      <div className="wire-message__head">
        <span className="num mono muted">{row.index + 1}</span>
        <span className={`role role--${row.role}`}>{row.role}</span>
        <span className={`wire-origin wire-origin--${row.origin}`}>{ORIGIN_LABEL[row.origin]}</span>
      </div>
      <pre className="wire-message__text">
        {row.prefix && (
          <mark className="wire-added" title="added by OpenClaw (not stored)" data-testid="wire-prefix">
            {row.prefix}
          </mark>
        )}
        {row.recordedPrefix && (
          <mark
            className="wire-added"
            title="added by OpenClaw, as its trajectory recorded (not stored in the transcript)"
            data-testid="wire-recorded-prefix"
          >
            {row.recordedPrefix}
          </mark>
        )}
        {row.origin === 'host' ? <mark className="wire-added">{body}</mark> : body}
        {row.suffix && (
          <mark className="wire-added" title="added by OpenClaw (not stored)" data-testid="wire-suffix">
            {row.suffix}
          </mark>
        )}
      </pre>
    </li>
  );
}

/** What the model received for this turn, as OpenClaw shapes the request for the replayed release. */
export function WireSection({ detail }: { detail: TurnDetail }) {
  const rows = wireRows(detail) ?? [];
  const view = detail.record.asSent;
  return (
    <TurnSection title="As sent to the model" count={rows.length} testId="wire-section">
      <p className="muted">
        OpenClaw {view?.openclawVersion} request shaping after the engine; marked text is added by OpenClaw and never
        stored. Not shown: {view?.elided.join(', ')}.
      </p>
      <ol className="wire-messages" aria-label="Messages as sent">
        {rows.map((row) => (
          <WireMessage key={row.index} row={row} />
        ))}
      </ol>
    </TurnSection>
  );
}

/** "As assembled" beside "As sent": a tab pair when the turn has an as-sent view, else just the assembled one. */
export function ContextTabs({ detail, assembled }: { detail: TurnDetail; assembled: ReactNode }) {
  const [tab, setTab] = useState<'assembled' | 'sent'>('assembled');
  if (!detail.record.asSent) return <>{assembled}</>;
  const tabButton = (id: 'assembled' | 'sent', label: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={tab === id}
      className={`tab${tab === id ? ' tab--active' : ''}`}
      onClick={() => setTab(id)}
    >
      {label}
    </button>
  );
  return (
    <div className="context-tabs">
      <div className="tabs" role="tablist" aria-label="Context view">
        {tabButton('assembled', 'As assembled')}
        {tabButton('sent', `As sent (OpenClaw ${detail.record.asSent.openclawVersion})`)}
      </div>
      {tab === 'assembled' ? assembled : <WireSection detail={detail} />}
    </div>
  );
}

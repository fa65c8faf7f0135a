import type { TurnDetail } from '../model/turnDetail';
import type { TurnRecord } from '../recordingTypes';
import { EngineCallsTable } from './EngineCallsTable';
import { Tag } from './Tag';
import type { TimelineLane } from './TimelineTable';
import { TurnEvents } from './TurnEvents';
import { TurnFacts } from './TurnFacts';
import { AppendedSection, AssembledSection, LeftOutSection } from './TurnMessageSections';
import { TurnPrecheck } from './TurnPrecheck';
import { TurnSection } from './TurnSection';
import { ContextTabs } from './WireSection';
import './TurnView.css';

export interface TurnViewProps {
  detail: TurnDetail;
  turnCount: number;
  /** the turn's user prompt, one line */
  prompt: string;
  lanes: readonly TimelineLane[];
  onSelectLane(laneId: string): void;
  expanded: Readonly<Record<string, true>>;
  onToggle(id: string): void;
}

function LaneTabs({
  lanes,
  selectedId,
  onSelect,
}: {
  lanes: readonly TimelineLane[];
  selectedId: string;
  onSelect(laneId: string): void;
}) {
  return (
    <div className="tabs" role="tablist" aria-label="Lane">
      {lanes.map((l) => (
        <button
          key={l.id}
          type="button"
          role="tab"
          aria-selected={l.id === selectedId}
          className={`tab${l.id === selectedId ? ' tab--active' : ''}`}
          onClick={() => onSelect(l.id)}
        >
          <span className="legend-swatch" style={{ background: l.color }} aria-hidden="true" />
          <span className="mono">{l.label}</span>
        </button>
      ))}
    </div>
  );
}

function SystemPromptSection({ record }: { record: TurnRecord }) {
  return (
    <TurnSection title="System prompt addition">
      {record.systemPromptAddition ? (
        <pre className="message-full">{record.systemPromptAddition}</pre>
      ) : (
        <p className="muted">None.</p>
      )}
      {record.promptAuthority && (
        <p>
          Prompt authority: <span className="mono">{record.promptAuthority}</span>
        </p>
      )}
    </TurnSection>
  );
}

function FindingsSection({ findings }: { findings: TurnDetail['findings'] }) {
  return (
    <TurnSection title="Findings" count={findings.length} testId="turn-findings">
      <ul className="findings">
        {findings.map((finding, i) => (
          <li key={i}>
            <Tag
              text={finding.severity}
              tone={finding.severity === 'error' ? 'bad' : finding.severity === 'warning' ? 'warn' : 'info'}
            />{' '}
            <span className="mono">{finding.code}</span> {finding.message}
          </li>
        ))}
      </ul>
    </TurnSection>
  );
}

/** One lane's turn: budget, what was assembled (with provenance), what was left out, and why. */
export function TurnView({ detail, turnCount, prompt, lanes, onSelectLane, expanded, onToggle }: TurnViewProps) {
  const { record, lane } = detail;
  return (
    <article
      className="card turn-view"
      aria-label={`Turn ${record.turn + 1}, lane ${lane.label}`}
      data-testid="turn-view"
    >
      <header className="turn-view__header">
        <h2 className="turn-view__title">
          Turn {record.turn + 1} <span className="muted">of {turnCount}</span>
        </h2>
        <LaneTabs lanes={lanes} selectedId={lane.id} onSelect={onSelectLane} />
        <Tag text={detail.worst.text} tone={detail.worst.tone} title={detail.worst.title} testId="turn-status" />
      </header>
      {detail.quarantine && (
        <p className="turn-view__quarantine" role="status" data-testid="lane-quarantine">
          {detail.quarantine.text}
        </p>
      )}
      {prompt && (
        <p className="turn-view__prompt">
          <span className="muted">User:</span> {prompt}
        </p>
      )}
      {record.error && <p className="turn-view__error">{record.error}</p>}

      <TurnFacts record={record} />
      <ContextTabs
        detail={detail}
        assembled={<AssembledSection detail={detail} expanded={expanded} onToggle={onToggle} />}
      />
      <LeftOutSection detail={detail} expanded={expanded} onToggle={onToggle} />
      <SystemPromptSection record={record} />
      <TurnSection title="Precheck">
        <TurnPrecheck record={record} />
      </TurnSection>
      <TurnSection title="Engine calls" count={record.calls.length}>
        <EngineCallsTable record={record} />
      </TurnSection>
      <TurnSection title="Events" count={record.events.length}>
        <TurnEvents events={record.events} />
      </TurnSection>
      {detail.findings.length > 0 && <FindingsSection findings={detail.findings} />}
      <AppendedSection detail={detail} expanded={expanded} onToggle={onToggle} />
    </article>
  );
}

import { useMemo } from 'react';
import { detailMatching, turnJson, type MessageRow, type TurnDetail } from '../model/turnDetail';
import type { TurnRecord } from '../recordingTypes';
import { EngineCallsTable } from './EngineCallsTable';
import { Tag } from './Tag';
import type { TimelineLane } from './TimelineTable';
import { TurnEvents } from './TurnEvents';
import { TurnFacts } from './TurnFacts';
import { TurnHooks } from './TurnHooks';
import { AppendedSection, AssembledSection, LeftOutSection } from './TurnMessageSections';
import { TurnPrecheck } from './TurnPrecheck';
import { TurnSection } from './TurnSection';
import { ContextTabs } from './WireSection';
import { formatCount } from '../formatQuantities';
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
  /** search within the turn's message lists (shared across turns) */
  messageQuery?: string;
  onMessageQuery?(query: string): void;
  /** "Copy turn as JSON" / "Copy as JSON" on a message: the JSON text to copy and what it is */
  onCopy?(text: string, what: string): void;
  /** follow a spawn link: show that session's lane at that turn */
  onOpenLane?(sessionId: string, laneId: string, turn: number): void;
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
function TurnTools({ detail, query, onQuery, onCopy, matches }: TurnToolsProps) {
  return (
    <div className="turn-view__tools" role="search" aria-label="Search this turn">
      {onQuery && (
        <input
          className="input turn-view__search"
          type="search"
          aria-label="Find in this turn's messages"
          placeholder="Find in this turn's messages…"
          value={query}
          onChange={(event) => onQuery(event.target.value)}
        />
      )}
      {query.trim() !== '' && (
        <span className="muted" data-testid="turn-search-count">
          {matches} matching message{matches === 1 ? '' : 's'}
        </span>
      )}
      {onCopy && (
        <button type="button" className="button" onClick={() => onCopy(turnJson(detail), 'turn')}>
          Copy turn as JSON
        </button>
      )}
    </div>
  );
}

interface TurnToolsProps {
  detail: TurnDetail;
  query: string;
  matches: number;
  onQuery?(query: string): void;
  onCopy?(text: string, what: string): void;
}

/** Links from a turn to the subagent lanes it spawned, and from a subagent lane's first turn back to its parent. */
function SpawnLinks({
  links,
  onOpen,
}: {
  links: TurnDetail['links'];
  onOpen(sessionId: string, laneId: string, turn: number): void;
}) {
  if (links.length === 0) return null;
  return (
    <nav className="turn-view__links" aria-label="Subagent lanes">
      {links.map((link) => (
        <button
          key={`${link.direction}:${link.laneId}`}
          type="button"
          className="button--link"
          data-testid={`spawn-link-${link.direction}`}
          onClick={() => onOpen(link.sessionId, link.laneId, link.turn)}
        >
          {link.direction === 'child' ? `→ subagent ${link.label}` : `← spawned by ${link.label}`}
        </button>
      ))}
    </nav>
  );
}

export function TurnView(props: TurnViewProps) {
  const {
    turnCount,
    prompt,
    lanes,
    onSelectLane,
    expanded,
    onToggle,
    messageQuery = '',
    onMessageQuery,
    onCopy,
    onOpenLane,
  } = props;
  const { record, lane } = props.detail;
  const detail = detailMatching(props.detail, messageQuery);
  const searching = messageQuery.trim() !== '';
  // (read only while searching: reading the left-out lists builds them)
  const matches = searching
    ? detail.assembled.length + detail.summarizedCount + detail.droppedCount + detail.newMessages.length
    : 0;
  // the same function across turns, so the message rows that show the same are not drawn again (MessageTable)
  const copyMessage = useMemo(
    () =>
      onCopy ? (row: MessageRow) => onCopy(JSON.stringify(row.message, null, 2), `message ${row.key}`) : undefined,
    [onCopy],
  );
  const sectionProps = { expanded, onToggle, ...(copyMessage ? { onCopy: copyMessage } : {}) };
  return (
    <article
      className="card turn-view"
      aria-label={`Turn ${record.turn + 1}, lane ${lane.label}`}
      data-testid="turn-view"
    >
      <header className="turn-view__header">
        <h2 className="turn-view__title">
          Turn {formatCount(record.turn + 1)} <span className="muted">of {formatCount(turnCount)}</span>
        </h2>
        <LaneTabs lanes={lanes} selectedId={lane.id} onSelect={onSelectLane} />
        <Tag text={detail.worst.text} tone={detail.worst.tone} title={detail.worst.title} testId="turn-status" />
      </header>
      {detail.quarantine && (
        <p className="turn-view__quarantine" role="status" data-testid="lane-quarantine">
          {detail.quarantine.text}
        </p>
      )}
      {onOpenLane && <SpawnLinks links={detail.links} onOpen={onOpenLane} />}
      {prompt && (
        <p className="turn-view__prompt">
          <span className="muted">User:</span> {prompt}
        </p>
      )}
      {record.error && <p className="turn-view__error">{record.error}</p>}

      <TurnTools
        detail={props.detail}
        query={messageQuery}
        matches={matches}
        {...(onMessageQuery ? { onQuery: onMessageQuery } : {})}
        {...(onCopy ? { onCopy } : {})}
      />
      <TurnFacts record={record} />
      <ContextTabs detail={detail} assembled={<AssembledSection detail={detail} {...sectionProps} />} />
      <LeftOutSection detail={detail} {...sectionProps} />
      <SystemPromptSection record={record} />
      <TurnHooks record={record} />
      <TurnSection title="Precheck">
        <TurnPrecheck record={record} />
      </TurnSection>
      <TurnSection title="Engine calls" count={record.calls.length}>
        <EngineCallsTable record={record} />
      </TurnSection>
      <TurnSection title="Events" count={record.events.length}>
        <TurnEvents events={record.events} record={record} />
      </TurnSection>
      {detail.findings.length > 0 && <FindingsSection findings={detail.findings} />}
      <AppendedSection detail={detail} {...sectionProps} open={searching && detail.newMessages.length > 0} />
    </article>
  );
}

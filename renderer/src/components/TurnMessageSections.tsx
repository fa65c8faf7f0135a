import type { MessageRow, TurnDetail } from '../model/turnDetail';
import { LazyDetails } from './LazyDetails';
import { MessageTable } from './MessageTable';
import { TurnSection } from './TurnSection';
import './TurnMessageSections.css';

interface Expansion {
  expanded: Readonly<Record<string, true>>;
  onToggle(id: string): void;
  onCopy?(row: MessageRow): void;
}

/** What the engine sent to the model, in order, with each message's provenance. */
export function AssembledSection({ detail, expanded, onToggle, onCopy }: { detail: TurnDetail } & Expansion) {
  return (
    <TurnSection title="Assembled context" count={detail.assembled.length} testId="assembled-section">
      {detail.assembled.length === 0 ? (
        <p className="muted">The engine assembled no messages (the first turn has no history).</p>
      ) : (
        <MessageTable
          listId="assembled"
          label="Assembled messages"
          rows={detail.assembled}
          showProvenance
          expanded={expanded}
          onToggle={onToggle}
          {...(onCopy ? { onCopy } : {})}
        />
      )}
    </TurnSection>
  );
}

function LeftOutMessages({
  kind,
  rows,
  expanded,
  onToggle,
}: { kind: 'Summarized' | 'Dropped'; rows: readonly MessageRow[] } & Expansion) {
  return (
    <LazyDetails
      className="left-out"
      summary={
        <>
          {kind} <span className="mono">{rows.length}</span>
        </>
      }
    >
      <MessageTable
        listId={kind.toLowerCase()}
        label={`${kind} messages`}
        rows={rows}
        showProvenance={false}
        expanded={expanded}
        onToggle={onToggle}
      />
    </LazyDetails>
  );
}

/** The transcript messages before this turn that are not in the context: summarized, or dropped. */
export function LeftOutSection({ detail, expanded, onToggle }: { detail: TurnDetail } & Expansion) {
  const leftOut = detail.summarized.length + detail.dropped.length;
  return (
    <TurnSection title="Left out of the context" count={leftOut} testId="left-out-section">
      {leftOut === 0 ? (
        <p className="muted">Nothing left out: every transcript message before this turn is in the context.</p>
      ) : (
        <>
          {detail.summarized.length > 0 && (
            <LeftOutMessages kind="Summarized" rows={detail.summarized} expanded={expanded} onToggle={onToggle} />
          )}
          {detail.dropped.length > 0 && (
            <LeftOutMessages kind="Dropped" rows={detail.dropped} expanded={expanded} onToggle={onToggle} />
          )}
        </>
      )}
    </TurnSection>
  );
}

/** The recorded model output this turn appended to the transcript (collapsed until opened). */
export function AppendedSection({
  detail,
  expanded,
  onToggle,
  onCopy,
  open,
}: { detail: TurnDetail; open?: boolean } & Expansion) {
  return (
    <TurnSection title="Recorded output appended" count={detail.newMessages.length}>
      <LazyDetails className="left-out" summary="What this turn added to the transcript" {...(open ? { open } : {})}>
        <MessageTable
          listId="new"
          label="Appended messages"
          rows={detail.newMessages}
          showProvenance={false}
          expanded={expanded}
          onToggle={onToggle}
          {...(onCopy ? { onCopy } : {})}
        />
      </LazyDetails>
    </TurnSection>
  );
}

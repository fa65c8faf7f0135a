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

type LeftOutKind = 'Summarized' | 'Dropped';

/** The left-out list itself, rendered once opened: only then are its rows read (and built, TurnDetail). */
function LeftOutTable({ kind, detail, ...expansion }: { kind: LeftOutKind; detail: TurnDetail } & Expansion) {
  return (
    <MessageTable
      listId={kind.toLowerCase()}
      label={`${kind} messages`}
      rows={kind === 'Summarized' ? detail.summarized : detail.dropped}
      showProvenance={false}
      expanded={expansion.expanded}
      onToggle={expansion.onToggle}
    />
  );
}

function LeftOutMessages({
  kind,
  count,
  ...props
}: { kind: LeftOutKind; count: number; detail: TurnDetail } & Expansion) {
  return (
    <LazyDetails
      className="left-out"
      summary={
        <>
          {kind} <span className="mono">{count}</span>
        </>
      }
    >
      <LeftOutTable kind={kind} {...props} />
    </LazyDetails>
  );
}

/** The transcript messages before this turn that are not in the context: summarized, or dropped. */
export function LeftOutSection({ detail, expanded, onToggle }: { detail: TurnDetail } & Expansion) {
  const leftOut = detail.summarizedCount + detail.droppedCount;
  const props = { detail, expanded, onToggle };
  return (
    <TurnSection title="Left out of the context" count={leftOut} testId="left-out-section">
      {leftOut === 0 ? (
        <p className="muted">Nothing left out: every transcript message before this turn is in the context.</p>
      ) : (
        <>
          {detail.summarizedCount > 0 && (
            <LeftOutMessages kind="Summarized" count={detail.summarizedCount} {...props} />
          )}
          {detail.droppedCount > 0 && <LeftOutMessages kind="Dropped" count={detail.droppedCount} {...props} />}
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

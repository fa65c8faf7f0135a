import {
  defaultRangeExtractor,
  measureElement,
  observeElementRect,
  useVirtualizer,
  type Range,
} from '@tanstack/react-virtual';
import { memo, useContext, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { formatCount } from '../formatQuantities';
import type { MessageRow } from '../model/turnDetail';
import { ProvenanceBadge } from './ProvenanceBadge';
import { ScrollRootContext } from './scrollRoot';
import './MessageTable.css';

export interface MessageTableProps {
  /** names the list in expansion ids (`<listId>:<index>`) and in the accessible name */
  listId: string;
  label: string;
  rows: readonly MessageRow[];
  showProvenance: boolean;
  expanded: Readonly<Record<string, true>>;
  onToggle(id: string): void;
  /** rows shown before "Show all" when there is no scroll root to window them against (ScrollRootContext) */
  pageSize?: number;
  /** "Copy as JSON" on an opened message */
  onCopy?(row: MessageRow): void;
}

interface MessageTableRowProps {
  row: MessageRow;
  listId: string;
  showProvenance: boolean;
  open: boolean;
  onToggle(id: string): void;
  onCopy?(row: MessageRow): void;
  /** the windowed list measures each rendered row (an opened message is taller) */
  measure?: (element: HTMLTableRowElement | null) => void;
}

/** Two rows show the same: consecutive turns share most of their messages, and a row that shows the same is skipped. */
function sameRow(a: MessageRow, b: MessageRow): boolean {
  return (
    a === b ||
    (a.index === b.index &&
      a.key === b.key &&
      a.text === b.text &&
      a.preview === b.preview &&
      a.role === b.role &&
      a.provenance === b.provenance &&
      a.estTokens === b.estTokens &&
      a.tiktokenTokens === b.tiktokenTokens &&
      a.sourceKey === b.sourceKey &&
      a.coversCount === b.coversCount &&
      a.message === b.message)
  );
}

function sameRowProps(a: MessageTableRowProps, b: MessageTableRowProps): boolean {
  return (
    sameRow(a.row, b.row) &&
    a.listId === b.listId &&
    a.showProvenance === b.showProvenance &&
    a.open === b.open &&
    a.onToggle === b.onToggle &&
    a.onCopy === b.onCopy &&
    a.measure === b.measure
  );
}

/** One message; memoised by what it shows (sameRowProps), so a turn switch re-renders only the rows that differ. */
const MessageTableRow = memo(function MessageTableRow(props: MessageTableRowProps) {
  const { row, listId, showProvenance, open, onToggle, onCopy, measure } = props;
  const id = `${listId}:${row.index}`;
  return (
    <tr data-testid="message-row" data-key={row.key} data-index={row.index} ref={measure}>
      <td className="num mono muted">{row.index + 1}</td>
      <td>
        <span className={`role role--${row.role}`}>{row.role}</span>
      </td>
      {showProvenance && <td>{row.provenance && <ProvenanceBadge provenance={row.provenance} />}</td>}
      <td className="num mono">{formatCount(row.estTokens)}</td>
      <td className="num mono">{formatCount(row.tiktokenTokens)}</td>
      <td className="messages__content">
        <button type="button" className="preview" aria-expanded={open} onClick={() => onToggle(id)}>
          <span className="preview__text">{row.preview || <span className="muted">(empty)</span>}</span>
        </button>
        {(row.sourceKey || row.coversCount !== undefined) && (
          <span className="messages__note">
            {row.sourceKey && (
              <>
                from <span className="mono">{row.sourceKey}</span>
              </>
            )}
            {row.coversCount !== undefined && <>covers {row.coversCount} messages</>}
          </span>
        )}
        {open && (
          <pre className="message-full" data-testid="message-full">
            {row.text}
          </pre>
        )}
        {open && onCopy && (
          <button type="button" className="button--link" onClick={() => onCopy(row)}>
            Copy as JSON
          </button>
        )}
      </td>
    </tr>
  );
}, sameRowProps);

/** a one-line message row (a note line makes it taller; rendered rows are measured) */
const ROW_ESTIMATE = 34;
/** the viewport assumed before the scroll root is laid out (and in jsdom, which has no layout) */
const FALLBACK_VIEWPORT = 1000;

function MessageHead({ showProvenance }: { showProvenance: boolean }) {
  return (
    <thead>
      <tr>
        <th scope="col" className="num">
          #
        </th>
        <th scope="col">Role</th>
        {showProvenance && <th scope="col">Provenance</th>}
        <th scope="col" className="num" title="OpenClaw's estimate (chars/4 per role)">
          Estimate
        </th>
        <th scope="col" className="num" title="tiktoken count of the LLM-visible text">
          tiktoken
        </th>
        <th scope="col" className="messages__content-head">
          Content
        </th>
      </tr>
    </thead>
  );
}

type RowsProps = Omit<MessageTableProps, 'label' | 'pageSize'>;

function rowElement(props: RowsProps, row: MessageRow, measure?: (element: HTMLTableRowElement | null) => void) {
  const { listId, showProvenance, expanded, onToggle, onCopy } = props;
  return (
    <MessageTableRow
      key={`${listId}:${row.index}`}
      row={row}
      listId={listId}
      showProvenance={showProvenance}
      open={expanded[`${listId}:${row.index}`] === true}
      onToggle={onToggle}
      {...(onCopy ? { onCopy } : {})}
      {...(measure ? { measure } : {})}
    />
  );
}

/** The indexes of this list's opened messages (a link opens one; it stays rendered wherever it is). */
function openedIndexes(listId: string, expanded: Readonly<Record<string, true>>): number[] {
  const prefix = `${listId}:`;
  return Object.keys(expanded)
    .filter((id) => id.startsWith(prefix))
    .map((id) => Number(id.slice(prefix.length)))
    .filter((index) => Number.isInteger(index) && index >= 0);
}

/**
 * Where `body` starts within the scroll root's content, in px. Read when the browser reports a resize of the
 * root's content or of the list (a turn switch changes what is above the list, or the list), which it does after
 * layout: a switch reads no layout of its own. Until then the list keeps the offset it had (the overscan covers
 * the difference for a frame).
 */
function useOffsetIn(root: RefObject<HTMLElement | null>, body: RefObject<HTMLElement | null>): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const scroller = root.current;
    const element = body.current;
    const content = scroller?.firstElementChild;
    if (!scroller || !element || !content || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const top = element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop;
      setOffset((before) => (Math.abs(before - top) < 1 ? before : top));
    });
    observer.observe(content);
    observer.observe(element);
    return () => observer.disconnect();
  }, [root, body]);
  return offset;
}

/**
 * Only the rows in view of the scroll root, and the opened ones (@tanstack/react-virtual): a turn switch renders
 * the same few dozen rows whatever the context's length. The list's offset within the scroll root is measured
 * after each render (what is above it differs per turn).
 */
function WindowedRows({ root, ...props }: RowsProps & { root: RefObject<HTMLElement | null> }) {
  const body = useRef<HTMLTableSectionElement>(null);
  const margin = useOffsetIn(root, body);
  const opened = openedIndexes(props.listId, props.expanded).filter((index) => index < props.rows.length);
  // eslint-disable-next-line react-hooks/incompatible-library -- the app does not use the React Compiler; the virtualizer re-renders this component on scroll itself
  const virtualizer = useVirtualizer({
    count: props.rows.length,
    getScrollElement: () => root.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 8,
    scrollMargin: margin,
    initialRect: { width: 0, height: FALLBACK_VIEWPORT },
    observeElementRect: (instance, report) =>
      observeElementRect(instance, (rect) =>
        report(rect.height > 0 ? rect : { width: rect.width, height: FALLBACK_VIEWPORT }),
      ),
    // a row not laid out (jsdom, a closed section) keeps the estimate
    measureElement: (element, entry, instance) => measureElement(element, entry, instance) || ROW_ESTIMATE,
    rangeExtractor: (range: Range) => [...new Set([...defaultRangeExtractor(range), ...opened])].sort((a, b) => a - b),
  });
  const cells: ReactNode[] = [];
  let end = margin;
  const spacer = (key: string, height: number) => <tr key={key} aria-hidden="true" style={{ height }} />;
  for (const item of virtualizer.getVirtualItems()) {
    if (item.start > end) cells.push(spacer(`gap:${item.index}`, item.start - end));
    cells.push(rowElement(props, props.rows[item.index]!, virtualizer.measureElement));
    end = item.end;
  }
  const total = margin + virtualizer.getTotalSize();
  if (total > end) cells.push(spacer('gap:end', total - end));
  return <tbody ref={body}>{cells}</tbody>;
}

/** Messages in order: role, provenance, both token counts, a one-line preview that expands on click. */
export function MessageTable({ label, pageSize = 150, ...props }: MessageTableProps) {
  const root = useContext(ScrollRootContext);
  const [showAll, setShowAll] = useState(false);
  const { listId, rows, showProvenance } = props;
  const shown = root || showAll ? rows : rows.slice(0, pageSize);
  return (
    <div className="table-wrap">
      <table className="table messages" aria-label={label} data-testid={`messages-${listId}`}>
        <MessageHead showProvenance={showProvenance} />
        {root ? <WindowedRows root={root} {...props} /> : <tbody>{shown.map((row) => rowElement(props, row))}</tbody>}
      </table>
      {rows.length > shown.length && (
        <button type="button" className="button button--link" onClick={() => setShowAll(true)}>
          Show all {rows.length} messages
        </button>
      )}
    </div>
  );
}

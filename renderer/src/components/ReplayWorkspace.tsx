import { useRef, type ReactNode } from 'react';
import { Group, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { ScrollRootContext } from './scrollRoot';
import { useElementSize, type ElementSize } from './useElementSize';
import './ReplayWorkspace.css';

/** Below this workspace width the timeline and the turn detail are stacked instead of side by side. */
export const SIDE_BY_SIDE_MIN_WIDTH = 1200;

/** Stacked, the turn detail is never shorter than this, in px (its heading, the prompt and the message search). */
export const STACKED_DETAIL_MIN_HEIGHT = 150;

export type WorkspaceOrientation = 'horizontal' | 'vertical';

export interface ReplayWorkspaceProps {
  /** the chart and the timeline, given the master pane's size (to fit the timeline's height to it) */
  master(size: ElementSize, orientation: WorkspaceOrientation): ReactNode;
  /** the detail pane's content; long lists in it window against the pane (ScrollRootContext) */
  detail: ReactNode;
  /** width and height used before the workspace is measured (and in jsdom) */
  initialSize?: ElementSize;
  /** px the master pane would like side by side (its table's width): sets the first split, between 45% and 70% */
  masterWidth?: number;
  /**
   * px the master pane would like stacked (the chart and a usable number of timeline rows): sets the first stacked
   * split, the detail keeping STACKED_DETAIL_MIN_HEIGHT; without it the master takes 60%
   */
  masterHeight?: number;
  /** px the master keeps stacked when the split is dragged (the chart and a few timeline rows); else 25% */
  masterMinHeight?: number;
}

const storage = typeof window !== 'undefined' ? window.localStorage : undefined;

function Panes({
  orientation,
  master,
  detail,
  initialSize,
  masterShare,
  masterHeight,
  masterMinHeight,
}: ReplayWorkspaceProps & { orientation: WorkspaceOrientation; masterShare: number }) {
  // only a split the user made is kept: the first one follows the recording (its lanes' width)
  const layout = useDefaultLayout({
    id: `replay-workspace-${orientation}`,
    storage,
    panelIds: ['master', 'detail'],
    onlySaveAfterUserInteractions: true,
  });
  // stacked, in px: what the master would like, cut (by the detail's least size) where the window is short
  const firstMasterSize = orientation === 'vertical' && masterHeight ? masterHeight : `${masterShare}%`;
  const masterRef = useRef<HTMLDivElement>(null);
  const detailRef = useRef<HTMLDivElement>(null);
  const masterSize = useElementSize(masterRef, initialSize ?? { width: 900, height: 480 });
  return (
    <Group
      orientation={orientation}
      className={`replay-workspace__group replay-workspace__group--${orientation}`}
      defaultLayout={layout.defaultLayout}
      onLayoutChanged={layout.onLayoutChanged}
    >
      <Panel
        id="master"
        defaultSize={firstMasterSize}
        minSize={orientation === 'horizontal' ? '30%' : (masterMinHeight ?? '25%')}
      >
        <div ref={masterRef} className="replay-workspace__pane replay-workspace__master" data-testid="pane-master">
          {master(masterSize, orientation)}
        </div>
      </Panel>
      <Separator className="replay-workspace__separator" />
      <Panel id="detail" minSize={orientation === 'horizontal' ? '25%' : STACKED_DETAIL_MIN_HEIGHT}>
        <div ref={detailRef} className="replay-workspace__pane replay-workspace__detail" data-testid="pane-detail">
          <ScrollRootContext.Provider value={detailRef}>{detail}</ScrollRootContext.Provider>
        </div>
      </Panel>
    </Group>
  );
}

/** A box that takes the height its flex column leaves and hands it to its content (the windowed timeline). */
export function FillHeight({ children, fallback = 320 }: { children(height: number): ReactNode; fallback?: number }) {
  const box = useRef<HTMLDivElement>(null);
  const { height } = useElementSize(box, { width: 0, height: fallback });
  return (
    <div ref={box} className="replay-workspace__fill">
      {children(height)}
    </div>
  );
}

/**
 * The Replay view's master/detail workspace: the timeline (with the chart) beside the turn detail on a wide screen,
 * above it on a narrow one, the split resizable by dragging or with the arrow keys on the separator and remembered
 * per orientation.
 */
export function ReplayWorkspace(props: ReplayWorkspaceProps) {
  const outer = useRef<HTMLDivElement>(null);
  const { width } = useElementSize(outer, props.initialSize ?? { width: 1000, height: 600 });
  const orientation = width >= SIDE_BY_SIDE_MIN_WIDTH ? 'horizontal' : 'vertical';
  const wanted = props.masterWidth ? (props.masterWidth / width) * 100 : 60;
  const masterShare = orientation === 'vertical' ? 60 : Math.round(Math.min(70, Math.max(45, wanted)));
  return (
    <div ref={outer} className="replay-workspace" data-testid="replay-workspace" data-orientation={orientation}>
      <Panes key={orientation} orientation={orientation} masterShare={masterShare} {...props} />
    </div>
  );
}

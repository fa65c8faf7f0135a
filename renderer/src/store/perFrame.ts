/**
 * Store updates that arrive faster than the screen is drawn (a streaming replay's progress events and pages, one
 * WebSocket message each) are applied once per animation frame: each applied update re-renders what reads it, and
 * hundreds of those a second left a key press waiting behind them (issue 34).
 */

export interface FrameBatch {
  /** `apply` runs at the next animation frame, once however often this is called before then */
  request(): void;
  /** runs `apply` now when a frame was requested (before an update that must not wait behind, or be undone by it) */
  flush(): void;
}

/** Without animation frames (a hidden page may get none for long): a short timer. */
function nextFrame(callback: () => void): void {
  if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && !document.hidden) {
    requestAnimationFrame(callback);
  } else setTimeout(callback, 16);
}

export function frameBatch(apply: () => void): FrameBatch {
  let requested = false;
  const run = () => {
    if (!requested) return;
    requested = false;
    apply();
  };
  return {
    request() {
      if (requested) return;
      requested = true;
      nextFrame(run);
    },
    flush: run,
  };
}

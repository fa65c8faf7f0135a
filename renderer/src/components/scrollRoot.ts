import { createContext, useContext, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * The element long lists inside scroll with (the Replay view's detail pane): a list given one renders only the rows
 * in view of it (MessageTable). Without one a list renders its rows in pages.
 */
export const ScrollRootContext = createContext<RefObject<HTMLElement | null> | null>(null);

function scrollToTop(element: HTMLElement): void {
  element.scrollTop = 0;
}

/**
 * Scrolls the scroll root back to its top whenever one of `keys` changes (another turn or lane is shown). Its
 * position is followed from its scroll events, so a root already at its top is left alone: setting scrollTop lays
 * the page out at once, in the middle of a turn switch.
 */
export function useScrollRootToTop(...keys: unknown[]): void {
  const root = useContext(ScrollRootContext);
  const top = useRef(0);
  useEffect(() => {
    const element = root?.current;
    if (!element) return;
    const follow = () => {
      top.current = element.scrollTop;
    };
    element.addEventListener('scroll', follow, { passive: true });
    return () => element.removeEventListener('scroll', follow);
  }, [root]);
  useLayoutEffect(() => {
    const element = root?.current;
    if (!element || top.current === 0) return;
    scrollToTop(element);
    top.current = 0;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `keys` are what a change of scrolls back to the top
  }, [root, ...keys]);
}

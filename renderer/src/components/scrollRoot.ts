import { createContext, type RefObject } from 'react';

/**
 * The element long lists inside scroll with (the Replay view's detail pane): a list given one renders only the rows
 * in view of it (MessageTable). Without one a list renders its rows in pages.
 */
export const ScrollRootContext = createContext<RefObject<HTMLElement | null> | null>(null);

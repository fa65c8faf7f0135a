import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// jsdom does no layout and has no ResizeObserver, which react-resizable-panels constructs on mount. This one reports
// one fixed size per observed element (as a browser reports the first layout), so charts and panes render at it.
export const OBSERVED_SIZE = { width: 1000, height: 600 };
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element): void {
      const contentRect = { ...OBSERVED_SIZE, x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0 } as DOMRectReadOnly;
      this.callback([{ target, contentRect } as ResizeObserverEntry], this);
    }
    unobserve(): void {}
    disconnect(): void {}
  };
}

afterEach(() => {
  cleanup();
});

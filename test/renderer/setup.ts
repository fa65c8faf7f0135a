import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import type * as Zustand from 'zustand';
import type { StateCreator } from 'zustand';
import { resetWorkspaceStore } from '../../renderer/src/store/workspaceStore';

// The renderer files share one module graph per worker (vitest.config.ts, isolate: false), so the app's stores live
// from one file to the next: every store made with zustand's `create` is put back to its initial state after each
// test, as a fresh import would give it (zustand's own testing recipe, with the resets kept where every file's run of
// this setup finds them).
const storeResets = vi.hoisted(() => {
  const key = Symbol.for('contextscope.test.storeResets');
  const holder = globalThis as { [key]?: Set<() => void> };
  return (holder[key] ??= new Set());
});
vi.mock('zustand', async (importOriginal) => {
  const zustand = await importOriginal<typeof Zustand>();
  const createResettable = (initializer: StateCreator<unknown>) => {
    const store = zustand.create(initializer);
    storeResets.add(() => store.setState(store.getInitialState(), true));
    return store;
  };
  // both of zustand's forms: create(initializer) and create<State>()(initializer)
  const create = ((initializer?: StateCreator<unknown>) =>
    initializer ? createResettable(initializer) : createResettable) as unknown as typeof zustand.create;
  return { ...zustand, create };
});

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
  for (const reset of storeResets) reset();
  resetWorkspaceStore();
  // and the page's own state a new jsdom would not have: the URL (deep links live in its hash) and storage
  window.history.replaceState(null, '', '/');
  window.localStorage.clear();
  window.sessionStorage.clear();
});

/**
 * Counts the renders of a component a test mocks its module for: `counted(real, () => count++)` is the real
 * component with its render function counted, kept memoised (with its comparison) when the real one is, so what it
 * counts is what React renders — a memoised component that bails out is not counted.
 */
import { memo, type ComponentType, type FunctionComponent } from 'react';

interface MemoComponent<P> {
  $$typeof: symbol;
  type: FunctionComponent<P>;
  compare: ((before: P, after: P) => boolean) | null;
}

const isMemo = <P>(component: unknown): component is MemoComponent<P> =>
  typeof component === 'object' &&
  component !== null &&
  (component as { $$typeof?: symbol }).$$typeof === Symbol.for('react.memo');

export function counted<P extends object>(component: ComponentType<P>, onRender: () => void): ComponentType<P> {
  if (isMemo<P>(component)) {
    const inner = component.type;
    const render = (props: P) => {
      onRender();
      return inner(props);
    };
    return memo(render, component.compare ?? undefined) as unknown as ComponentType<P>;
  }
  if (typeof component !== 'function' || component.prototype?.isReactComponent) {
    throw new Error('counted() takes a function component or a memo() of one');
  }
  const render = component as FunctionComponent<P>;
  return (props: P) => {
    onRender();
    return render(props);
  };
}

/**
 * A page script (for page.addInitScript) that counts which React components rendered in each commit, through the
 * hook React calls for its developer tools: `window.__csRenders` maps a component's name to how often its function
 * ran since `window.__csResetRenders()`. A component counts when React called it in a commit (it did work), not when
 * a memoised or unchanged subtree was reused — the same test React's developer tools use (the committed fiber's
 * children are new fibers, and the fiber has the PerformedWork flag). Names need an unminified build.
 */
export const RENDER_COUNTER_SCRIPT = `(() => {
  const PERFORMED_WORK = 1;
  // function, class, forwardRef, memo, simple memo components
  const COMPONENT_TAGS = new Set([0, 1, 11, 14, 15]);
  const counts = {};
  window.__csRenders = counts;
  window.__csResetRenders = () => { for (const key of Object.keys(counts)) delete counts[key]; };
  const nameOf = (type) => {
    if (!type) return '?';
    if (typeof type === 'function') return type.displayName || type.name || 'anonymous';
    return type.displayName || nameOf(type.type || type.render);
  };
  // children of a fiber whose alternate has the same child were not rendered again in this commit
  const visit = (fiber) => {
    for (let child = fiber.child; child; child = child.sibling) {
      if (COMPONENT_TAGS.has(child.tag) && (child.alternate === null || (child.flags & PERFORMED_WORK))) {
        const name = nameOf(child.type);
        counts[name] = (counts[name] || 0) + 1;
      }
      if (!child.alternate || child.child !== child.alternate.child) visit(child);
    }
  };
  let nextId = 1;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject(renderer) { const id = nextId++; this.renderers.set(id, renderer); return id; },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot(_id, root) {
      const current = root.current;
      if (!current.alternate || current.child !== current.alternate.child) visit(current);
    },
  };
})();`;

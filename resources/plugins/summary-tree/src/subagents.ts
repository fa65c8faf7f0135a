// Subagents: a forked child starts from a copy of its parent's tree (rolled back by dropping it); an isolated one
// starts empty. When a subagent ends, deleted/swept state is dropped and anything else is kept (saved).

import type { EngineContext } from './engineContext.ts';
import { SessionTree } from './sessionTree.ts';
import type { PrepareSubagentSpawnParams, SubagentEndedParams, SubagentSpawnPreparation } from './types.ts';

export async function prepareSubagentSpawn(
  ctx: EngineContext,
  params: PrepareSubagentSpawnParams,
): Promise<SubagentSpawnPreparation> {
  const { store, logger } = ctx;
  const childKey = params.childSessionKey;
  if (params.contextMode !== 'fork') {
    return {
      rollback: () => {
        logger.info(`summary-tree: rollback for isolated subagent ${childKey}: nothing was prepared.`);
      },
    };
  }

  const parentId = params.parentSessionId ?? store.sessionIdForKey(params.parentSessionKey);
  const childId = params.childSessionId ?? `pending:${childKey}`;
  const seed = async (): Promise<SessionTree> => {
    const parent = parentId ? await store.get(parentId, params.parentSessionKey) : undefined;
    if (!parent || (parent.nodes.length === 0 && parent.raw.length === 0)) {
      logger.warn(
        `summary-tree: fork of ${params.parentSessionKey} → ${childKey}: no state for the parent; the child starts empty.`,
      );
      return new SessionTree(childId, childKey);
    }
    return parent.cloneAs(childId, childKey);
  };
  const child = parentId ? await store.withLock(parentId, seed) : await seed();
  child.placeholder = params.childSessionId === undefined;
  store.put(child);
  await store.save(child);
  logger.info(
    `summary-tree: seeded forked subagent ${childKey} with ${child.activeRoots().length} summary(ies) and ` +
      `${child.raw.length} recent message(s) from ${parentId ?? '(unknown parent)'}.`,
  );

  return {
    rollback: async () => {
      // The child may have been adopted under its real sessionId since; look it up by key.
      const id = store.sessionIdForKey(childKey) ?? childId;
      await store.drop(id);
      logger.info(`summary-tree: rolled back forked subagent ${childKey}: dropped its seeded state.`);
    },
  };
}

export async function onSubagentEnded(ctx: EngineContext, params: SubagentEndedParams): Promise<void> {
  const { store, logger } = ctx;
  const id = store.sessionIdForKey(params.childSessionKey);
  if (id === undefined) {
    logger.debug?.(`summary-tree: subagent ${params.childSessionKey} ended (${params.reason}); no state held.`);
    return;
  }
  if (params.reason === 'deleted' || params.reason === 'swept') {
    await store.withLock(id, () => store.drop(id));
    logger.info(`summary-tree: subagent ${params.childSessionKey} ${params.reason}: dropped its state.`);
    return;
  }
  const tree = store.peek(id);
  if (tree) await store.withLock(id, () => store.save(tree));
  logger.info(`summary-tree: subagent ${params.childSessionKey} ${params.reason}: kept its state.`);
}

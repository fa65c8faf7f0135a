/** Counts for a loaded session: entries by type, the active path, and how many branches the tree has. */
import type { SessionEntry } from '../contract';
import { getActivePath, type SessionTreeSource } from './sessionContext';

export interface SessionTreeSummary {
  entryCount: number;
  entriesByType: Record<string, number>;
  messagesByRole: Record<string, number>;
  leafId: string | null;
  activePathLength: number;
  /** leaves of the tree (entries no other entry hangs from, `leaf` rows aside); 1 for a linear session */
  branchCount: number;
  /** entries with more than one child */
  forkPoints: string[];
  roots: number;
}

export function describeSessionTree(session: SessionTreeSource): SessionTreeSummary {
  const entriesByType: Record<string, number> = {};
  const messagesByRole: Record<string, number> = {};
  const childCount = new Map<string, number>();
  let roots = 0;
  const treeEntries: SessionEntry[] = [];
  for (const entry of session.entries) {
    entriesByType[entry.type] = (entriesByType[entry.type] ?? 0) + 1;
    if (entry.type === 'message') messagesByRole[entry.message.role] = (messagesByRole[entry.message.role] ?? 0) + 1;
    if (entry.type === 'leaf') continue;
    treeEntries.push(entry);
    if (entry.parentId === null) roots += 1;
    else childCount.set(entry.parentId, (childCount.get(entry.parentId) ?? 0) + 1);
  }
  let branchCount = 0;
  const forkPoints: string[] = [];
  for (const entry of treeEntries) {
    const children = childCount.get(entry.id) ?? 0;
    if (children === 0) branchCount += 1;
    if (children > 1) forkPoints.push(entry.id);
  }
  return {
    entryCount: session.entries.length,
    entriesByType,
    messagesByRole,
    leafId: session.leafId,
    activePathLength: getActivePath(session).length,
    branchCount,
    forkPoints,
    roots,
  };
}

/**
 * The Sessions table: sessions ordered so each subagent child follows its parent, with the labels shown for
 * parent/child links; and the session the app preselects (the short demo). Pure.
 */
import type { ResponseOf } from '../../../src/bridge';

export type ListedSession = ResponseOf<'sessions.list'>['sessions'][number];

export interface SessionRow {
  session: ListedSession;
  /** 0 for top-level sessions, 1+ for subagent children shown under their parent */
  depth: number;
  title: string;
  /** "subagent of agent:main:main" */
  parentLabel: string | null;
  /** "2 subagents: leak-audit, currency-tests" */
  childrenLabel: string | null;
}

/** How the table is sorted (families stay together: a subagent child follows its parent) and filtered. */
export interface SessionListView {
  sort: 'updated' | 'size' | 'agent' | 'turns';
  /** only this agent's sessions ('' = every agent) */
  agent: string;
  /** only families with a session whose key, id or agent contains this text (case-insensitive) */
  query: string;
}

export const DEFAULT_SESSION_VIEW: SessionListView = { sort: 'updated', agent: '', query: '' };

/** The demo session opened by default: the one with subagents, then any top-level session. */
export const DEMO_SESSION_KEY = 'agent:main:main';

export function sessionTitle(session: ListedSession): string {
  return session.key ?? session.sessionId;
}

const COMPARE: Record<SessionListView['sort'], (a: ListedSession, b: ListedSession) => number> = {
  updated: (a, b) => b.mtimeMs - a.mtimeMs,
  size: (a, b) => b.size - a.size || b.mtimeMs - a.mtimeMs,
  agent: (a, b) => a.agentId.localeCompare(b.agentId) || b.mtimeMs - a.mtimeMs,
  turns: (a, b) => (b.turns ?? -1) - (a.turns ?? -1) || b.mtimeMs - a.mtimeMs,
};

/** The agents of the listed sessions, sorted (the agent filter's choices). */
export function sessionAgents(sessions: readonly ListedSession[]): string[] {
  return [...new Set(sessions.map((s) => s.agentId).filter((id) => id !== ''))].sort();
}

function matches(session: ListedSession, view: SessionListView): boolean {
  if (view.agent !== '' && session.agentId !== view.agent) return false;
  const query = view.query.trim().toLowerCase();
  if (query === '') return true;
  return [session.key ?? '', session.sessionId, session.agentId].some((text) => text.toLowerCase().includes(query));
}

/**
 * The rows of the table: each family (a top-level session and its subagents, as a tree) in the order `view.sort`
 * gives its top-level session, children after their parent; a family is shown when any of its sessions matches
 * the filter.
 */
export function buildSessionRows(
  sessions: readonly ListedSession[],
  view: SessionListView = DEFAULT_SESSION_VIEW,
): SessionRow[] {
  const all = buildFamilyRows([...sessions].sort(COMPARE[view.sort]));
  if (view.agent === '' && view.query.trim() === '') return all;
  const shown: SessionRow[] = [];
  for (let start = 0; start < all.length;) {
    let end = start + 1;
    while (end < all.length && all[end]!.depth > 0) end++;
    const family = all.slice(start, end);
    if (family.some((row) => matches(row.session, view))) shown.push(...family);
    start = end;
  }
  return shown;
}

function buildFamilyRows(sessions: readonly ListedSession[]): SessionRow[] {
  const byId = new Map(sessions.map((s) => [s.sessionId, s]));
  const childrenOf = new Map<string, ListedSession[]>();
  for (const s of sessions) {
    if (s.parentSessionId && byId.has(s.parentSessionId)) {
      const list = childrenOf.get(s.parentSessionId) ?? [];
      list.push(s);
      childrenOf.set(s.parentSessionId, list);
    }
  }
  const rows: SessionRow[] = [];
  const placed = new Set<string>();
  // iterative depth-first walk: children right after their parent, no recursion limit
  const roots = sessions.filter((s) => !(s.parentSessionId && byId.has(s.parentSessionId)));
  const stack: { session: ListedSession; depth: number }[] = roots.map((session) => ({ session, depth: 0 })).reverse();
  while (stack.length > 0) {
    const { session, depth } = stack.pop()!;
    if (placed.has(session.sessionId)) continue;
    placed.add(session.sessionId);
    const parent = session.parentSessionId ? byId.get(session.parentSessionId) : undefined;
    const childIds = session.childSessionIds;
    const childTitles = childIds.map((id) => {
      const child = byId.get(id);
      return child ? shortChildName(child) : id.slice(0, 8);
    });
    rows.push({
      session,
      depth,
      title: sessionTitle(session),
      parentLabel:
        session.isSubagent || parent
          ? `subagent of ${parent ? sessionTitle(parent) : (session.parentSessionId ?? 'another session')}`
          : null,
      childrenLabel:
        childIds.length > 0
          ? `${childIds.length} subagent${childIds.length === 1 ? '' : 's'}: ${childTitles.join(', ')}`
          : null,
    });
    const children = childrenOf.get(session.sessionId) ?? [];
    for (let i = children.length - 1; i >= 0; i--) stack.push({ session: children[i]!, depth: depth + 1 });
  }
  return rows;
}

function shortChildName(child: ListedSession): string {
  return shortSessionKey(child.key ?? child.sessionId);
}

/** A subagent's key as the app names it in a line of text: its last part, a uuid's first 8 characters. */
export function shortSessionKey(key: string): string {
  const last = key.split(':').pop() ?? key;
  return last.length > 12 ? last.slice(0, 8) : last;
}

export function pickDemoSession(sessions: readonly ListedSession[]): ListedSession | null {
  return sessions.find((s) => s.key === DEMO_SESSION_KEY) ?? sessions.find((s) => !s.isSubagent) ?? sessions[0] ?? null;
}

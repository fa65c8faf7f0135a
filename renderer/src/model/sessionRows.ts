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

/** The demo session opened by default: the short one, then any top-level session. */
export const DEMO_SESSION_KEY = 'agent:main:demo-short';

export function sessionTitle(session: ListedSession): string {
  return session.key ?? session.sessionId;
}

export function buildSessionRows(sessions: readonly ListedSession[]): SessionRow[] {
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
  const key = child.key ?? child.sessionId;
  const last = key.split(':').pop() ?? key;
  return last.length > 12 ? last.slice(0, 8) : last;
}

export function pickDemoSession(sessions: readonly ListedSession[]): ListedSession | null {
  return sessions.find((s) => s.key === DEMO_SESSION_KEY) ?? sessions.find((s) => !s.isSubagent) ?? sessions[0] ?? null;
}

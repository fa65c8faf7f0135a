/**
 * The structured summary as data: the required sections of a history summary and of a split-turn prefix
 * summary, how to render them with the exact headings, how to read a previous summary back into sections, and
 * how to merge two summaries.
 */

export type HistorySections = {
  goal: string[];
  constraints: string[];
  done: string[];
  inProgress: string[];
  blocked: string[];
  decisions: string[];
  nextSteps: string[];
  critical: string[];
};

export type HistorySectionKey = keyof HistorySections;

export const HISTORY_SECTION_KEYS: readonly HistorySectionKey[] = [
  'goal',
  'constraints',
  'done',
  'inProgress',
  'blocked',
  'decisions',
  'nextSteps',
  'critical',
];

export function emptyHistorySections(): HistorySections {
  return {
    goal: [],
    constraints: [],
    done: [],
    inProgress: [],
    blocked: [],
    decisions: [],
    nextSteps: [],
    critical: [],
  };
}

const NONE = '(none)';

function bullets(items: readonly string[], prefix: (i: number) => string): string {
  if (items.length === 0) return `- ${NONE}`;
  return items.map((item, i) => `${prefix(i)}${item}`).join('\n');
}

/** Renders the sections with the exact headings of the history summary format. */
export function renderHistorySections(s: HistorySections): string {
  return [
    `## Goal\n${bullets(s.goal, () => '- ')}`,
    `## Constraints & Preferences\n${bullets(s.constraints, () => '- ')}`,
    `## Progress\n### Done\n${bullets(s.done, () => '- [x] ')}`,
    `### In Progress\n${bullets(s.inProgress, () => '- [ ] ')}`,
    `### Blocked\n${bullets(s.blocked, () => '- ')}`,
    `## Key Decisions\n${bullets(s.decisions, () => '- ')}`,
    `## Next Steps\n${bullets(s.nextSteps, (i) => `${i + 1}. `)}`,
    `## Critical Context\n${bullets(s.critical, () => '- ')}`,
  ].join('\n\n');
}

export type TurnPrefixSections = {
  originalRequest: string[];
  earlyProgress: string[];
  contextForSuffix: string[];
};

export const TURN_PREFIX_SECTION_KEYS: readonly (keyof TurnPrefixSections)[] = [
  'originalRequest',
  'earlyProgress',
  'contextForSuffix',
];

/** Renders the sections with the exact headings of the turn-prefix format. */
export function renderTurnPrefixSections(s: TurnPrefixSections): string {
  return [
    `## Original Request\n${s.originalRequest.length > 0 ? s.originalRequest.join('\n') : NONE}`,
    `## Early Progress\n${bullets(s.earlyProgress, () => '- ')}`,
    `## Context for Suffix\n${bullets(s.contextForSuffix, () => '- ')}`,
  ].join('\n\n');
}

/** Headings (lowercased) of any summary this codebase or OpenClaw writes, mapped to the history section they feed. */
const HEADING_TO_SECTION: Record<string, HistorySectionKey | null> = {
  goal: 'goal',
  'original request': 'goal',
  'constraints & preferences': 'constraints',
  progress: 'done',
  done: 'done',
  'early progress': 'done',
  'in progress': 'inProgress',
  blocked: 'blocked',
  'key decisions': 'decisions',
  'next steps': 'nextSteps',
  'latest unresolved user request': 'nextSteps',
  'critical context': 'critical',
  'context for suffix': 'critical',
};

const BULLET_PREFIX_RE = /^(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)/;

/**
 * Reads a summary back into history sections. Lines before any known heading go to Critical Context;
 * `<read-files>` / `<modified-files>` blocks, the split-turn separator and "(none)" placeholders are skipped.
 */
export function parseSummarySections(summary: string): HistorySections {
  const sections = emptyHistorySections();
  let current: HistorySectionKey | null = 'critical';
  let inFileBlock = false;
  for (const rawLine of summary.split('\n')) {
    const line = rawLine.trim();
    if (!line) continue;
    if (/^<(read-files|modified-files)>$/.test(line)) {
      inFileBlock = true;
      continue;
    }
    if (/^<\/(read-files|modified-files)>$/.test(line)) {
      inFileBlock = false;
      continue;
    }
    if (inFileBlock || line === '---' || line === '**Turn Context (split turn):**') continue;
    const heading = /^#{2,3}\s+(.+)$/.exec(line);
    if (heading) {
      const key = heading[1]!.trim().toLowerCase();
      current = key in HEADING_TO_SECTION ? HEADING_TO_SECTION[key]! : 'critical';
      continue;
    }
    if (current === null) continue;
    let item = line.replace(BULLET_PREFIX_RE, '').trim();
    // a JSON string line (the latest-unresolved-request block) is shown decoded
    if (item.startsWith('"') && item.endsWith('"')) {
      try {
        const decoded: unknown = JSON.parse(item);
        if (typeof decoded === 'string') item = decoded;
      } catch {
        // keep the raw line
      }
    }
    if (item && item !== NONE) sections[current].push(item);
  }
  return sections;
}

function normalizeItem(item: string): string {
  return item.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Items of `a` then `b`, without duplicates (compared case- and whitespace-insensitively). */
export function mergeItems(a: readonly string[], b: readonly string[]): string[] {
  return mergeItemsUpTo(a, b, Infinity);
}

/** `mergeItems(a, [...b]).slice(0, max)`, reading `b` only until `max` items are found. */
export function mergeItemsUpTo(a: readonly string[], b: Iterable<string>, max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  if (max <= 0) return out;
  for (const items of [a, b]) {
    for (const item of items) {
      const key = normalizeItem(item);
      if (!key || seen.has(key)) continue;
      seen.add(key);
      out.push(item);
      if (out.length >= max) return out;
    }
  }
  return out;
}

/**
 * Folds `next` into `previous`: everything from the previous summary that still holds stays, new items are
 * appended, work now done leaves In Progress, and Next Steps come from the newer summary when it has any.
 */
export function mergeHistorySections(previous: HistorySections, next: HistorySections): HistorySections {
  const done = mergeItems(previous.done, next.done);
  const doneKeys = new Set(done.map(normalizeItem));
  return {
    goal: mergeItems(previous.goal, next.goal),
    constraints: mergeItems(previous.constraints, next.constraints),
    done,
    inProgress: mergeItems(previous.inProgress, next.inProgress).filter((item) => !doneKeys.has(normalizeItem(item))),
    blocked: mergeItems(previous.blocked, next.blocked),
    decisions: mergeItems(previous.decisions, next.decisions),
    nextSteps: next.nextSteps.length > 0 ? mergeItems([], next.nextSteps) : mergeItems(previous.nextSteps, []),
    critical: mergeItems(previous.critical, next.critical),
  };
}

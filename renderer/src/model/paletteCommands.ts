/** The command palette's list and its filter. Pure: the commands' actions are closures the caller builds. */

export type PaletteGroup = 'View' | 'Lane' | 'Turn' | 'Action';

export interface PaletteCommand {
  id: string;
  group: PaletteGroup;
  label: string;
  /** a second line: a turn's prompt, a lane's engine */
  detail?: string;
  /** a shortcut shown beside it (already written for people) */
  hint?: string;
  run(): void;
}

function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Every query word starts a word of the text ("turn 4" finds Turn 4 and Turn 40, not Turn 14). */
function matchesAll(textWords: readonly string[], queryWords: readonly string[]): boolean {
  return queryWords.every((q) => textWords.some((word) => word.startsWith(q)));
}

/** Lower is better: the label is the query, starts with it, has all its words, the detail has them; else no match. */
function rank(command: PaletteCommand, query: string, queryWords: readonly string[]): number {
  const label = command.label.toLowerCase();
  if (label === query) return 0;
  if (label.startsWith(query)) return 1;
  const labelWords = wordsOf(`${command.group} ${command.label}`);
  if (matchesAll(labelWords, queryWords)) return 2;
  return matchesAll([...labelWords, ...wordsOf(command.detail ?? '')], queryWords) ? 3 : Infinity;
}

/**
 * The commands in which every word of the query starts a word of their group, label or detail (case-insensitive),
 * best first, at most `limit`. An empty query lists them in their order.
 */
export function filterCommands(commands: readonly PaletteCommand[], query: string, limit = 60): PaletteCommand[] {
  const q = query.trim().toLowerCase();
  if (q === '') return commands.slice(0, limit);
  const words = wordsOf(q);
  return commands
    .map((command, index) => ({ command, index, score: rank(command, q, words) }))
    .filter((entry) => entry.score !== Infinity)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.command);
}

/**
 * "Lanes differ at this turn", decided on what was assembled — which messages each lane sent, in which order, with
 * which content, what it did with the rest (summarized, dropped), and the system prompt addition — never on token
 * totals or findings. Each comparison is one lane against another (each lane against the first of one recording,
 * or each lane of an old recording against the same lane of a new one), with a one-line account of the difference.
 */
import { turnCountOf, type CompareInput } from './compareInput';
import { laneTurnState, sentSignature, STATUS_CODES, type LaneTurnState } from './laneTurnState';

export interface PairDifference {
  /** column indexes: `other` is described against `base` */
  base: number;
  other: number;
  /** messages base sent that other left out (of which other summarized `leftOutSummarized`) */
  leftOut: number;
  leftOutSummarized: number;
  /** messages other sent that base did not */
  added: number;
  /** messages both sent, with different content or status (sent as recorded vs modified, another summary text) */
  changed: number;
  /** messages both left out, but not the same way (summarized vs dropped, or not in one lane's history) */
  leftOutDifferently: number;
  /** messages both sent that other sends out of base's order */
  moved: number;
  systemPromptAddition: boolean;
  /** which side has no such turn */
  missingTurn: 'base' | 'other' | null;
  differs: boolean;
}

export interface TurnDifference {
  turn: number;
  differs: boolean;
  pairs: PairDifference[];
  /** one line, '' when the lanes agree */
  summary: string;
}

const IN_CONTEXT = new Set([1, 2, 3, 4]);

function countTranscript(a: LaneTurnState, b: LaneTurnState, d: PairDifference): void {
  const n = Math.max(a.extent, b.extent);
  for (let i = 0; i < n; i++) {
    const sa = i < a.extent ? a.status[i]! : 0;
    const sb = i < b.extent ? b.status[i]! : 0;
    const inA = IN_CONTEXT.has(sa);
    const inB = IN_CONTEXT.has(sb);
    if (inA && inB) {
      if (sa !== sb) d.changed++;
      else if (sa !== 1 && sentSignature(a, '', i) !== sentSignature(b, '', i)) d.changed++;
    } else if (inA) {
      d.leftOut++;
      if (STATUS_CODES[sb] === 'summarized') d.leftOutSummarized++;
    } else if (inB) d.added++;
    else if (sa !== sb) d.leftOutDifferently++;
  }
}

function countExtras(a: LaneTurnState, b: LaneTurnState, d: PairDifference): void {
  for (const [id, item] of a.extras) {
    const other = b.extras.get(id);
    if (!other) d.leftOut++;
    else if (other.status !== item.status || sentSignature(a, id, null) !== sentSignature(b, id, null)) d.changed++;
  }
  for (const id of b.extras.keys()) if (!a.extras.has(id)) d.added++;
}

/**
 * The messages both lanes sent that `b` sends out of `a`'s order: everything outside the longest run of shared
 * messages `b` keeps in `a`'s order (so one message moved to the front is one move, not a wall of changes).
 */
export function movedIds(a: LaneTurnState, b: LaneTurnState): Set<string> {
  const rankInB = new Map<string, number>();
  b.order.forEach((id, i) => rankInB.set(id, i));
  const shared = a.order.filter((id) => rankInB.has(id));
  // longest increasing subsequence of b's ranks in a's order (patience sorting, O(n log n))
  const tails: number[] = [];
  const tailAt: number[] = [];
  const parent = new Int32Array(shared.length).fill(-1);
  shared.forEach((id, i) => {
    const rank = rankInB.get(id)!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (tails[mid]! < rank) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = rank;
    tailAt[lo] = i;
    parent[i] = lo > 0 ? tailAt[lo - 1]! : -1;
  });
  const inOrder = new Set<number>();
  for (let i = tails.length > 0 ? tailAt[tails.length - 1]! : -1; i >= 0; i = parent[i]!) inOrder.add(i);
  const moved = new Set<string>();
  shared.forEach((id, i) => {
    if (!inOrder.has(i)) moved.add(id);
  });
  return moved;
}

/** How lane state `b` differs from `a` at one turn. */
export function comparePair(a: LaneTurnState, b: LaneTurnState, base: number, other: number): PairDifference {
  const d: PairDifference = {
    base,
    other,
    leftOut: 0,
    leftOutSummarized: 0,
    added: 0,
    changed: 0,
    leftOutDifferently: 0,
    moved: 0,
    systemPromptAddition: false,
    missingTurn: a.record && !b.record ? 'other' : !a.record && b.record ? 'base' : null,
    differs: false,
  };
  countTranscript(a, b, d);
  countExtras(a, b, d);
  d.moved = movedIds(a, b).size;
  if (a.record && b.record) {
    d.systemPromptAddition = (a.record.systemPromptAddition ?? null) !== (b.record.systemPromptAddition ?? null);
  }
  d.differs =
    d.leftOut + d.added + d.changed + d.leftOutDifferently + d.moved > 0 ||
    d.systemPromptAddition ||
    d.missingTurn !== null;
  return d;
}

function messages(count: number): string {
  return `${count} message${count === 1 ? '' : 's'}`;
}

/** e.g. "recent-window left out 18 messages that legacy sent; summarized 3; sent 1 that legacy did not". */
export function describePair(d: PairDifference, baseLabel: string, otherLabel: string, turn: number): string {
  if (d.missingTurn === 'other') return `${otherLabel} has no turn ${turn + 1}`;
  if (d.missingTurn === 'base') return `${baseLabel} has no turn ${turn + 1}`;
  const parts: string[] = [];
  if (d.leftOut > 0) {
    parts.push(`${otherLabel} left out ${messages(d.leftOut)} that ${baseLabel} sent`);
    if (d.leftOutSummarized > 0) parts.push(`summarized ${d.leftOutSummarized}`);
  }
  if (d.added > 0)
    parts.push(`${parts.length > 0 ? 'sent' : `${otherLabel} sent`} ${d.added} that ${baseLabel} did not`);
  if (d.changed > 0) parts.push(`${messages(d.changed)} sent differently`);
  if (d.leftOutDifferently > 0) parts.push(`${messages(d.leftOutDifferently)} left out differently`);
  if (d.moved > 0) parts.push(`${messages(d.moved)} in a different order`);
  if (d.systemPromptAddition) parts.push('a different system prompt addition');
  if (parts.length > 0 && d.leftOut === 0 && d.added === 0) parts[0] = `${otherLabel}: ${parts[0]}`;
  return parts.join('; ');
}

/** The lanes' differences at one turn from their states (one per column). */
export function differencesOf(input: CompareInput, states: readonly LaneTurnState[], turn: number): TurnDifference {
  const pairs = input.comparisons.map(([base, other]) => comparePair(states[base]!, states[other]!, base, other));
  const summary = pairs
    .filter((d) => d.differs)
    .map((d) => describePair(d, input.columns[d.base]!.label, input.columns[d.other]!.label, turn))
    .join(' · ');
  return { turn, differs: pairs.some((d) => d.differs), pairs, summary };
}

/** Whether (and how) the compared lanes differ at `turn`. */
export function turnDifference(input: CompareInput, turn: number): TurnDifference {
  const states = input.columns.map((column) => laneTurnState(column, turn, input.session));
  return differencesOf(input, states, turn);
}

/** Every turn's difference, in turn order (what the "only turns where lanes differ" filter keeps). */
export function turnDifferences(input: CompareInput): TurnDifference[] {
  const count = turnCountOf(input);
  const out: TurnDifference[] = [];
  for (let turn = 0; turn < count; turn++) out.push(turnDifference(input, turn));
  return out;
}

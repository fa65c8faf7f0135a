/**
 * summary-tree keeps the active part of its tree incrementally (active nodes, sorted roots, leaf count, depth) and
 * compacts from the active nodes only. Property: over random sessions of appends and compactions, every one of
 * these equals the straightforward computation over all nodes — including a whole-tree compaction written the
 * way it was before (every node copied, roots found by filtering all of them) and the journal operation it
 * implies — and replaying the journal onto the starting snapshot rebuilds the same tree.
 */
import { createHash } from 'node:crypto';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { createJiti } from 'jiti';
import { describe, expect, it } from 'vitest';
import type { AgentMessage } from '../../../resources/plugins/summary-tree/src/types';

// The plugin's modules import each other with `.ts` extensions, which this project's tsconfig does not allow, so
// their shapes are declared here (as in summaryTreeEngine.test.ts) instead of imported.
interface Node {
  id: string;
  level: number;
  ordinal: number;
  fromSeq: number;
  toSeq: number;
  text: string;
  facts: unknown;
  method: 'llm' | 'deterministic';
  childIds: string[];
  parentId?: string;
  lastTimestamp: number;
  tokens: number;
}
interface Stored {
  seq: number;
  tokens: number;
  message: AgentMessage;
}
interface Tree {
  raw: Stored[];
  levelCounters: number[];
  pendingOps: ({ n: number } & Record<string, unknown>)[];
  readonly nodes: readonly Node[];
  append(message: AgentMessage): boolean;
  activeNodes(): Node[];
  activeRoots(): readonly Node[];
  leafCount(): number;
  depth(): number;
  commit(plan: Plan): void;
  toSnapshot(): unknown;
  replay(op: unknown): boolean;
}
interface Plan {
  raw: Stored[];
  activeBefore: Node[];
  newNodes: Node[];
  levelCounters: number[];
  created: string[];
}
interface Draft {
  text: string;
  facts: unknown;
}
interface Summarizer {
  summarizeChunk(messages: AgentMessage[], ctx: object): Promise<Draft>;
  condense(children: Node[], ctx: object): Promise<Draft>;
}
interface Options {
  freshTailTokens: number;
  leafChunkTokens: number;
  maxLeavesBeforeCondense: number;
  targetTokens: number;
}

const PLUGIN_SRC = resolve(__dirname, '../../../resources/plugins/summary-tree/src');
const jiti = createJiti(import.meta.url, { fsCache: false, moduleCache: true });
const { compactTree, chunkForLeaves, findFreshTailStart, planRoots } = await jiti.import<{
  compactTree(tree: Tree, options: Options & { summarizer: Summarizer; ctx: object }): Promise<Plan>;
  chunkForLeaves(messages: Stored[], chunkTokens: number): Stored[][];
  findFreshTailStart(raw: Stored[], freshTailTokens: number): number;
  planRoots(plan: Plan): Node[];
}>(join(PLUGIN_SRC, 'compactTree.ts'));
const { messageHash } = await jiti.import<{ messageHash(message: unknown): string }>(
  join(PLUGIN_SRC, 'contentHash.ts'),
);
const { estimateMessageTokens } = await jiti.import<{ estimateMessageTokens(message: AgentMessage): number }>(
  join(PLUGIN_SRC, 'estimateTokens.ts'),
);
const { SessionTree, renderSummaryMessage, timestampMs } = await jiti.import<{
  SessionTree: { new (sessionId: string, sessionKey?: string): Tree; fromSnapshot(snapshot: unknown): Tree };
  renderSummaryMessage(
    node: Pick<Node, 'level' | 'ordinal' | 'fromSeq' | 'toSeq' | 'text' | 'lastTimestamp'>,
  ): AgentMessage;
  timestampMs(message: AgentMessage): number;
}>(join(PLUGIN_SRC, 'sessionTree.ts'));
const { createSummarizer } = await jiti.import<{
  createSummarizer(options: { mode: 'deterministic'; maxTokens: number; logger: object }): Summarizer;
}>(join(PLUGIN_SRC, 'summarizer.ts'));

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const summarizer = createSummarizer({ mode: 'deterministic', maxTokens: 60, logger: quiet });

/** compactTree as it was written over the whole tree: every node in one list, roots found by filtering it. */
async function wholeTreeCompaction(tree: Tree, options: Options, summarize: Summarizer) {
  const nodes: Node[] = structuredClone([...tree.nodes]);
  const counters = [...tree.levelCounters];
  const created: string[] = [];
  type Range = { fromSeq: number; toSeq: number; lastTimestamp: number };
  const build = (level: number, range: Range, draft: Draft, childIds: string[]) => {
    while (counters.length <= level) counters.push(0);
    const ordinal = ++counters[level]!;
    const base = { level, ordinal, ...range, text: draft.text };
    const tokens = estimateMessageTokens(renderSummaryMessage(base));
    const node: Node = {
      id: `L${level}#${ordinal}`,
      ...base,
      facts: draft.facts,
      method: 'deterministic',
      childIds,
      tokens,
    };
    nodes.push(node);
    created.push(node.id);
    return node;
  };
  const condense = async (group: Node[], level: number) => {
    const draft = await summarize.condense(group, {});
    const last = group[group.length - 1]!;
    const range = { fromSeq: group[0]!.fromSeq, toSeq: last.toSeq, lastTimestamp: last.lastTimestamp };
    const parent = build(
      level,
      range,
      draft,
      group.map((c) => c.id),
    );
    for (const child of group) child.parentId = parent.id;
  };
  const activeAt = (level: number) =>
    nodes.filter((n) => n.parentId === undefined && n.level === level).sort((a, b) => a.fromSeq - b.fromSeq);

  const tailStart = findFreshTailStart(tree.raw, options.freshTailTokens);
  for (const chunk of chunkForLeaves(tree.raw.slice(0, tailStart), options.leafChunkTokens)) {
    const draft = await summarize.summarizeChunk(
      chunk.map((s) => s.message),
      {},
    );
    const last = chunk[chunk.length - 1]!;
    build(0, { fromSeq: chunk[0]!.seq, toSeq: last.seq, lastTimestamp: timestampMs(last.message) }, draft, []);
  }
  const raw = tree.raw.slice(tailStart);
  for (let level = 0; level < counters.length; level++) {
    for (let active = activeAt(level); active.length > options.maxLeavesBeforeCondense; active = activeAt(level)) {
      await condense(active.slice(0, options.maxLeavesBeforeCondense), level + 1);
    }
  }
  const roots = nodes.filter((n) => n.parentId === undefined).sort((a, b) => a.fromSeq - b.fromSeq);
  const total = roots.reduce((s, n) => s + n.tokens, 0) + raw.reduce((s, m) => s + m.tokens, 0);
  if (total > options.targetTokens && roots.length > 1)
    await condense(roots, Math.max(...roots.map((n) => n.level)) + 1);
  return { raw, nodes, levelCounters: counters, created };
}

/** The journal operation a whole-tree commit records: existing nodes that got a parent, in tree order, and the new ones. */
function commitOpBetween(before: readonly Node[], after: Node[], dropRaw: number, levelCounters: number[]) {
  const oldParents = new Map(before.map((n) => [n.id, n.parentId]));
  const parents: [string, string][] = [];
  const created: Node[] = [];
  for (const node of after) {
    if (!oldParents.has(node.id)) created.push(node);
    else if (node.parentId !== undefined && oldParents.get(node.id) !== node.parentId)
      parents.push([node.id, node.parentId]);
  }
  return { op: 'commit', dropRaw, parents, created, levelCounters };
}

function expectDerivedStateMatches(tree: Tree): void {
  const all = [...tree.nodes];
  expect(tree.activeNodes()).toEqual(all.filter((n) => n.parentId === undefined));
  expect(tree.activeRoots()).toEqual(all.filter((n) => n.parentId === undefined).sort((a, b) => a.fromSeq - b.fromSeq));
  expect(tree.leafCount()).toBe(all.filter((n) => n.level === 0).length);
  expect(tree.depth()).toBe(all.reduce((max, n) => Math.max(max, n.level + 1), 0));
}

const messageArb = fc.record({
  role: fc.constantFrom('user', 'assistant', 'assistant', 'toolResult'),
  chars: fc.integer({ min: 1, max: 600 }),
  path: fc.constantFrom('src/a.ts', 'README.md', 'test/b.test.ts'),
});

const stepArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      messages: fc.array(messageArb, { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('compact' as const),
      freshTailTokens: fc.integer({ min: 0, max: 300 }),
      leafChunkTokens: fc.integer({ min: 20, max: 250 }),
      maxLeavesBeforeCondense: fc.integer({ min: 2, max: 4 }),
      targetTokens: fc.integer({ min: 0, max: 1500 }),
      keep: fc.boolean(),
    }),
  },
);

describe('summary-tree incremental tree state', () => {
  it('equals the whole-tree computation after every step, and the journal replays to the same tree', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 30 }), async (steps) => {
        const tree = new SessionTree('s', 'k');
        const start = structuredClone(tree.toSnapshot());
        const journal: string[] = []; // written after every step, as a save does
        let n = 0;
        for (const step of steps) {
          if (step.kind === 'append') {
            for (const m of step.messages) {
              const text = `${m.role === 'user' ? 'Please fix' : 'Looked at'} ${m.path}. ${'x'.repeat(m.chars)}`;
              const timestamp = 1_700_000_000_000 + n++ * 1000;
              tree.append({ role: m.role, content: [{ type: 'text', text }], timestamp } as AgentMessage);
            }
          } else {
            const reference = await wholeTreeCompaction(tree, step, summarizer);
            const plan = await compactTree(tree, { ...step, summarizer, ctx: {} });
            expect(plan.created).toEqual(reference.created);
            expect(plan.levelCounters).toEqual(reference.levelCounters);
            expect(plan.raw.map((s: Stored) => s.seq)).toEqual(reference.raw.map((s) => s.seq));
            expect(planRoots(plan)).toEqual(reference.nodes.filter((node) => node.parentId === undefined));
            if (step.keep) {
              const before = structuredClone([...tree.nodes]);
              const dropRaw = tree.raw.length - plan.raw.length;
              tree.commit(plan);
              expect([...tree.nodes]).toEqual(reference.nodes);
              const { n: _n, ...op } = tree.pendingOps[tree.pendingOps.length - 1]!;
              expect(op).toEqual(commitOpBetween(before, reference.nodes, dropRaw, reference.levelCounters));
            }
          }
          expectDerivedStateMatches(tree);
          journal.push(...tree.pendingOps.map((op) => JSON.stringify(op)));
          tree.pendingOps = [];
        }
        // The journal rebuilds the same tree and the same derived state.
        const replayed = SessionTree.fromSnapshot(start);
        for (const line of journal) expect(replayed.replay(JSON.parse(line))).toBe(true);
        expect(JSON.parse(JSON.stringify(replayed.toSnapshot()))).toEqual(
          JSON.parse(JSON.stringify(tree.toSnapshot())),
        );
        expectDerivedStateMatches(replayed);
        const reloaded = SessionTree.fromSnapshot(JSON.parse(JSON.stringify(tree.toSnapshot())));
        expectDerivedStateMatches(reloaded);
        expect(reloaded.activeRoots()).toEqual(tree.activeRoots());
      }),
      { numRuns: 60 },
    );
  });
});

describe('summary-tree message hash', () => {
  /** sha256 of the canonical JSON (sorted keys, undefined members left out), as createHash computes it. */
  function reference(value: unknown): string {
    const canonical = (v: unknown): string => {
      if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
      if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
      const record = v as Record<string, unknown>;
      const members = Object.keys(record)
        .sort()
        .filter((k) => record[k] !== undefined)
        .map((k) => `${JSON.stringify(k)}:${canonical(record[k])}`);
      return `{${members.join(',')}}`;
    };
    return createHash('sha256').update(canonical(value)).digest('hex').slice(0, 16);
  }

  it('is the createHash digest of the canonical JSON, lone surrogates and all', () => {
    const strings = fc.string({ unit: 'binary' });
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(strings, fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined)),
      node: fc.oneof(
        { depthSize: 'small' },
        tie('leaf'),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(strings, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(messageHash(v)).toBe(reference(v));
      }),
      { numRuns: 300 },
    );
  });
});

/**
 * The bundled summary-tree plugin's engine, loaded in-process through jiti (the plugin's own loader path is
 * covered by samplePlugins.test.ts): incremental bootstrap, fallback to a full import, journaled persistence and
 * determinism.
 */
import {
  appendFileSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createJiti } from 'jiti';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentMessage, ContextEngine, PluginLogger } from '../../../resources/plugins/summary-tree/src/types';

const PLUGIN_SRC = resolve(__dirname, '../../../resources/plugins/summary-tree/src');
const jiti = createJiti(import.meta.url, { fsCache: false, moduleCache: true });

interface EngineModule {
  createSummaryTreeEngine(deps: { config: unknown; logger: PluginLogger }): ContextEngine;
}
interface ConfigModule {
  resolveConfig(raw: Record<string, unknown>): unknown;
}
interface StoreModule {
  JOURNAL_COMPACT_MIN_BYTES: number;
}

const { createSummaryTreeEngine } = await jiti.import<EngineModule>(join(PLUGIN_SRC, 'engine.ts'));
const { resolveConfig } = await jiti.import<ConfigModule>(join(PLUGIN_SRC, 'config.ts'));
const { JOURNAL_COMPACT_MIN_BYTES } = await jiti.import<StoreModule>(join(PLUGIN_SRC, 'sessionStore.ts'));

const SESSION = { sessionId: 'sess-1', sessionKey: 'agent:main:main' };

class Logs implements PluginLogger {
  readonly lines: string[] = [];
  debug = (m: string) => void this.lines.push(`debug ${m}`);
  info = (m: string) => void this.lines.push(`info ${m}`);
  warn = (m: string) => void this.lines.push(`warn ${m}`);
  error = (m: string) => void this.lines.push(`error ${m}`);
  matching(re: RegExp): string[] {
    return this.lines.filter((line) => re.test(line));
  }
  clear(): void {
    this.lines.length = 0;
  }
}

/** Message n: a user question or an assistant answer, ~`chars` long, with a fixed timestamp. */
function message(n: number, chars = 120): AgentMessage {
  const role = n % 2 === 0 ? 'user' : 'assistant';
  const text =
    `${role === 'user' ? 'Please look at' : 'I changed'} src/file${n}.ts. ${'lorem ipsum dolor sit amet '.repeat(Math.ceil(chars / 27))}`.slice(
      0,
      chars,
    );
  return { role, content: [{ type: 'text', text }], timestamp: 1_700_000_000_000 + n * 1000 };
}

const header = (id: string) =>
  `${JSON.stringify({ type: 'session', version: 3, id, timestamp: '2026-01-01T00:00:00.000Z', cwd: '/w' })}\n`;
const entryLine = (n: number, parent: number | null, body = message(n)) =>
  `${JSON.stringify({ type: 'message', id: `e${n}`, parentId: parent === null ? null : `e${parent}`, timestamp: '2026-01-01T00:00:00.000Z', message: body })}\n`;
/** Lines for messages from..to (inclusive), chained to `parent`. */
function chain(from: number, to: number, parent: number | null): string {
  let out = '';
  for (let n = from; n <= to; n++) out += entryLine(n, n === from ? parent : n - 1);
  return out;
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'summary-tree-engine-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function engineWith(logs: Logs, config: Record<string, unknown> = {}, stateDir = join(dir, 'state')): ContextEngine {
  return createSummaryTreeEngine({
    config: resolveConfig({ stateDir, summarizer: 'deterministic', ...config }),
    logger: logs,
  });
}

describe('summary-tree bootstrap reads only what was appended', () => {
  it('imports exactly the appended messages and reads only the appended bytes', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s') + chain(0, 5, null));
    const logs = new Logs();
    const engine = engineWith(logs);

    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 6,
    });
    expect(logs.matching(/read the whole file/)).toHaveLength(1);

    const sizeBefore = statSync(file).size;
    const appended = chain(6, 9, 5);
    appendFileSync(file, appended);
    logs.clear();
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 4,
    });
    expect(logs.matching(/summary-tree: .*session\.jsonl: /)).toEqual([
      `debug summary-tree: ${file}: read the appended part, ${Buffer.byteLength(appended)} byte(s) from offset ${sizeBefore}.`,
    ]);

    logs.clear();
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 0,
    });
    expect(logs.matching(/read the appended part, 0 byte\(s\)/)).toHaveLength(1);

    const assembled = await engine.assemble({ ...SESSION, messages: [] });
    expect(assembled.messages).toEqual(Array.from({ length: 10 }, (_, n) => message(n)));
  });

  it('leaves a torn last line for the next read and imports it once it is complete', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s') + chain(0, 1, null));
    const logs = new Logs();
    const engine = engineWith(logs);
    await engine.bootstrap({ ...SESSION, sessionFile: file });

    const line = entryLine(2, 1);
    appendFileSync(file, line.slice(0, 40));
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 0,
    });
    expect(logs.matching(/skipped 1 line\(s\) that are not JSON/)).toHaveLength(1);

    appendFileSync(file, line.slice(40) + entryLine(3, 2));
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 2,
    });
    expect((await engine.assemble({ ...SESSION, messages: [] })).messages).toEqual([0, 1, 2, 3].map((n) => message(n)));
  });

  it('follows the active branch: a leaf moved back re-reads the file, a new message under it is imported', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s') + chain(0, 5, null));
    const logs = new Logs();
    const engine = engineWith(logs);
    await engine.bootstrap({ ...SESSION, sessionFile: file });

    appendFileSync(file, `${JSON.stringify({ type: 'leaf', id: 'l1', parentId: 'e5', targetId: 'e3' })}\n`);
    logs.clear();
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 0,
    });
    expect(logs.matching(/read the whole file, .* \(the active branch moved to entry e3\)\./)).toHaveLength(1);

    appendFileSync(file, entryLine(10, 3));
    logs.clear();
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 1,
    });
    expect(logs.matching(/read the appended part/)).toHaveLength(1);
  });
});

describe('summary-tree bootstrap falls back to a full import', () => {
  it('when the file shrank (a rewritten transcript)', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s') + chain(0, 7, null));
    const logs = new Logs();
    const engine = engineWith(logs);
    await engine.bootstrap({ ...SESSION, sessionFile: file });
    const oldSize = statSync(file).size;

    writeFileSync(file, header('s') + chain(20, 21, null));
    logs.clear();
    // Reading from the old offset would find nothing; a full import finds both new messages.
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 2,
    });
    expect(logs.matching(/read the whole file/)).toEqual([
      `debug summary-tree: ${file}: read the whole file, ${statSync(file).size} byte(s) from offset 0 (the file shrank from ${oldSize} to ${statSync(file).size} bytes).`,
    ]);
  });

  it('when a successor file replaced it (new inode, longer than before)', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s') + chain(0, 3, null));
    const logs = new Logs();
    const engine = engineWith(logs);
    await engine.bootstrap({ ...SESSION, sessionFile: file });

    // A compaction successor: a new header, the kept messages, then new ones; written aside and renamed over.
    const successor = join(dir, 'successor.jsonl');
    writeFileSync(
      successor,
      header('s2') + chain(2, 3, null) + entryLine(30, 3) + entryLine(31, 30) + entryLine(32, 31),
    );
    renameSync(successor, file);
    logs.clear();
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 3,
    });
    expect(logs.matching(/read the whole file, .* \(the file was replaced\)\./)).toHaveLength(1);
  });

  it('when the start of the file was rewritten in place to the same or a larger size', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s') + chain(0, 3, null));
    const logs = new Logs();
    const engine = engineWith(logs);
    await engine.bootstrap({ ...SESSION, sessionFile: file });

    const rewritten = header('other') + chain(40, 45, null);
    writeFileSync(file, rewritten); // same inode, truncated and rewritten, larger than before
    logs.clear();
    expect(await engine.bootstrap({ ...SESSION, sessionFile: file })).toEqual({
      bootstrapped: true,
      importedMessages: 6,
    });
    expect(logs.matching(/\(the start of the file was rewritten\)/)).toHaveLength(1);
  });
});

/** Drives `engine` like OpenClaw for turns [from, to): bootstrap, assemble, afterTurn; returns each assembly. */
async function drive(
  engine: ContextEngine,
  file: string,
  from: number,
  to: number,
  chars: number,
  tokenBudget = 4000,
): Promise<string[]> {
  const out: string[] = [];
  for (let turn = from; turn < to; turn++) {
    await engine.bootstrap({ ...SESSION, sessionFile: file });
    const turnMessages = [message(turn * 2, chars), message(turn * 2 + 1, chars)];
    out.push(JSON.stringify(await engine.assemble({ ...SESSION, messages: turnMessages.slice(0, 1), tokenBudget })));
    await engine.afterTurn({
      ...SESSION,
      sessionFile: file,
      messages: turnMessages,
      prePromptMessageCount: 0,
      tokenBudget,
    });
    appendFileSync(file, entryLineFor(turn * 2, turnMessages[0]!) + entryLineFor(turn * 2 + 1, turnMessages[1]!));
  }
  return out;
}
const entryLineFor = (n: number, body: AgentMessage) => entryLine(n, n === 0 ? null : n - 1, body);

const SMALL = {
  tokenBudget: 4000,
  contextThreshold: 0.5,
  freshTailTokens: 500,
  leafChunkTokens: 300,
  maxLeavesBeforeCondense: 3,
};

describe('summary-tree persistence (snapshot + journal)', () => {
  it('a new instance on the same stateDir assembles exactly what the old one did', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s'));
    const first = engineWith(new Logs(), SMALL);
    await drive(first, file, 0, 30, 400);
    const before = await first.assemble({ ...SESSION, messages: [], tokenBudget: 4000 });
    await first.dispose();

    // The state is a snapshot plus a journal of operations, compactions included.
    const stateDir = join(dir, 'state');
    expect(readdirSync(stateDir).sort()).toEqual(['sess-1.journal.jsonl', 'sess-1.json']);
    const ops = readFileSync(join(stateDir, 'sess-1.journal.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { op: string });
    expect(new Set(ops.map((o) => o.op))).toEqual(new Set(['append', 'commit', 'transcript']));
    expect(before.messages[0]?.content).toEqual([
      expect.objectContaining({ text: expect.stringMatching(/^\[summary-tree L\d #\d+ covers msgs 1-\d+\]/) }),
    ]);

    const second = engineWith(new Logs(), SMALL);
    expect(await second.assemble({ ...SESSION, messages: [], tokenBudget: 4000 })).toEqual(before);

    // …and it continues exactly like an instance that never restarted.
    const reference = engineWith(new Logs(), { ...SMALL, persist: false });
    const referenceFile = join(dir, 'reference.jsonl');
    writeFileSync(referenceFile, header('s'));
    await drive(reference, referenceFile, 0, 30, 400);
    expect(await drive(second, file, 30, 45, 400)).toEqual(await drive(reference, referenceFile, 30, 45, 400));
  });

  it('folds a journal larger than the snapshot into a new snapshot, and still reloads identically', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s'));
    // No compaction (huge budget): the journal grows by ~8 KB per message until it passes the threshold.
    const config = { tokenBudget: 2_000_000, contextThreshold: 1 };
    const engine = engineWith(new Logs(), config);
    const journal = join(dir, 'state', 'sess-1.journal.jsonl');
    const turns = Math.ceil(JOURNAL_COMPACT_MIN_BYTES / 16_000) + 10;
    let largest = 0;
    for (let turn = 0; turn < turns; turn++) {
      await drive(engine, file, turn, turn + 1, 8000, 2_000_000);
      largest = Math.max(largest, statSync(journal).size);
    }
    expect(largest).toBeGreaterThan(JOURNAL_COMPACT_MIN_BYTES);
    expect(statSync(journal).size).toBeLessThan(JOURNAL_COMPACT_MIN_BYTES / 2);
    const before = await engine.assemble({ ...SESSION, messages: [] });
    expect(before.messages).toHaveLength(turns * 2);

    const reloaded = engineWith(new Logs(), config);
    expect(await reloaded.assemble({ ...SESSION, messages: [] })).toEqual(before);
  });

  it('ignores a torn last journal line, says so, and keeps everything before it', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s'));
    const first = engineWith(new Logs(), SMALL);
    await drive(first, file, 0, 12, 400);
    const before = await first.assemble({ ...SESSION, messages: [], tokenBudget: 4000 });
    await first.dispose();
    const journal = join(dir, 'state', 'sess-1.journal.jsonl');
    const lines = readFileSync(journal, 'utf8').split('\n').length;
    appendFileSync(journal, '{"n":99999,"op":"app');

    const logs = new Logs();
    const second = engineWith(logs, SMALL);
    expect(await second.assemble({ ...SESSION, messages: [], tokenBudget: 4000 })).toEqual(before);
    expect(logs.matching(/warn/)).toEqual([
      `warn summary-tree: ${journal}:${lines}: not JSON (an unfinished write); using the state up to operation ${JSON.parse(readFileSync(journal, 'utf8').split('\n')[lines - 2]!).n}. The next save rewrites the snapshot.`,
    ]);
  });
});

describe('summary-tree determinism', () => {
  it('two instances fed the same session produce identical assemblies and identical state files', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s'));
    const copy = join(dir, 'copy.jsonl');
    writeFileSync(copy, header('s')); // both drives append the same lines: the files stay byte-identical
    const a = engineWith(new Logs(), SMALL, join(dir, 'state-a'));
    const b = engineWith(new Logs(), SMALL, join(dir, 'state-b'));
    const outA: string[] = [];
    const outB: string[] = [];
    for (let turn = 0; turn < 25; turn++) {
      outA.push(...(await drive(a, file, turn, turn + 1, 350)));
      outB.push(...(await drive(b, copy, turn, turn + 1, 350)));
    }
    expect(outB).toEqual(outA);
    expect(outA.some((json) => json.includes('[summary-tree L1 '))).toBe(true);
    await a.dispose();
    await b.dispose();
    const journalOps = (d: string) =>
      readFileSync(join(dir, d, 'sess-1.journal.jsonl'), 'utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as { op: string })
        .filter((op) => op.op !== 'transcript'); // cursors name the file read
    expect(journalOps('state-b')).toEqual(journalOps('state-a'));
  });
});

describe('summary-tree assemble returns the host its own message objects', () => {
  it('messages delivered by afterTurn come back as the same objects, deep-equal to what a copy-returning engine gives', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s'));
    const engine = engineWith(new Logs(), SMALL);
    const delivered = new Map<number, AgentMessage>(); // by timestamp
    for (let turn = 0; turn < 20; turn++) {
      const turnMessages = [message(turn * 2, 400), message(turn * 2 + 1, 400)];
      for (const m of turnMessages) delivered.set(m.timestamp as number, m);
      const lines = entryLineFor(turn * 2, turnMessages[0]!) + entryLineFor(turn * 2 + 1, turnMessages[1]!);
      // Odd turns: the transcript is written first, so bootstrap imports its own parsed copies and afterTurn then
      // delivers identical messages (the dedupe path). Even turns: afterTurn first, bootstrap finds them held.
      if (turn % 2 === 1) appendFileSync(file, lines);
      await engine.bootstrap({ ...SESSION, sessionFile: file });
      await engine.assemble({ ...SESSION, messages: turnMessages.slice(0, 1), tokenBudget: 4000 });
      await engine.afterTurn({
        ...SESSION,
        sessionFile: file,
        messages: turnMessages,
        prePromptMessageCount: 0,
        tokenBudget: 4000,
      });
      if (turn % 2 === 0) appendFileSync(file, lines);
    }
    const assembled = await engine.assemble({ ...SESSION, messages: [], tokenBudget: 4000 });
    const raw = assembled.messages.filter((m) => !JSON.stringify(m.content).includes('[summary-tree L'));
    expect(raw.length).toBeGreaterThan(2);
    expect(assembled.messages.length).toBeGreaterThan(raw.length); // summaries too
    for (const m of raw) expect(m).toBe(delivered.get(m.timestamp as number));

    // A copy-returning engine: a fresh instance on the same state holds only the persisted copies.
    await engine.dispose();
    const reloaded = engineWith(new Logs(), SMALL);
    const copies = await reloaded.assemble({ ...SESSION, messages: [], tokenBudget: 4000 });
    expect(copies).toEqual(assembled);
    expect(JSON.stringify(copies)).toBe(JSON.stringify(assembled));
    for (const m of copies.messages) expect([...delivered.values()]).not.toContain(m);
  });

  it('a host object mutated after delivery is not returned: the stored copy is', async () => {
    const file = join(dir, 'session.jsonl');
    writeFileSync(file, header('s'));
    const engine = engineWith(new Logs(), { persist: false });
    const user = message(0);
    const reply: AgentMessage = {
      ...message(1),
      stopReason: 'stop',
      usage: { input: 10, output: 5, totalTokens: 15, cost: { total: 0.1 } },
    };
    await engine.afterTurn({ ...SESSION, sessionFile: file, messages: [user, reply], prePromptMessageCount: 0 });
    const pristine = structuredClone(reply);
    expect((await engine.assemble({ ...SESSION, messages: [] })).messages[1]).toBe(reply);

    (reply.usage as { totalTokens: number }).totalTokens = 99;
    const afterUsage = (await engine.assemble({ ...SESSION, messages: [] })).messages;
    expect(afterUsage[0]).toBe(user);
    expect(afterUsage[1]).not.toBe(reply);
    expect(afterUsage[1]).toEqual(pristine);

    (reply.usage as { totalTokens: number }).totalTokens = 15;
    reply.stopReason = 'aborted';
    expect((await engine.assemble({ ...SESSION, messages: [] })).messages[1]).toEqual(pristine);
  });
});

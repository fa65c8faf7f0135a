import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './runCli';
import { SessionBuilder, tempDir } from './sessionBuilder';

async function run(args: string[]) {
  const { lines, err, code } = await runCli(args);
  return { out: lines, err, code };
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('contextscope replay --ndjson', () => {
  it('writes a header, each lane-turn with the messages it first references, then a footer — one object a line', async () => {
    const dir = tempDir();
    await new SessionBuilder().turn('one').turn('two').turn('three').write(dir);
    const file = join(dir, 'sess-1.jsonl');
    const r = await run([
      'replay',
      file,
      '--lane',
      'legacy?window=32000',
      '--lane',
      'legacy?window=64000&label=wide',
      '--ndjson',
    ]);
    expect(r.code).toBe(0);
    // one write per line: a tool reading stdout gets each record as soon as it is written
    expect(r.out.every((chunk) => chunk.endsWith('\n') && chunk.indexOf('\n') === chunk.length - 1)).toBe(true);
    const lines = r.out.map((chunk) => JSON.parse(chunk) as Record<string, any>);
    expect(lines.map((l) => l.type)).toEqual(['header', 'turn', 'turn', 'turn', 'turn', 'turn', 'turn', 'footer']);
    expect(lines[0]!.lanes.map((l: { id: string }) => l.id)).toEqual(['legacy@32000', 'wide']);
    expect(lines[0]!.session.turns).toBe(3);
    const turns = lines.filter((l) => l.type === 'turn');
    expect(turns.filter((t) => t.lane === 'wide').map((t) => t.turn)).toEqual([0, 1, 2]);
    const known = new Set<string>();
    for (const t of turns) {
      for (const key of Object.keys(t.messages)) known.add(key);
      expect(known.has(t.record.promptKey)).toBe(true);
      for (const ref of t.record.assembled) expect(known.has(ref.key)).toBe(true);
    }
    expect(lines[7]!.summary.lanes).toEqual([
      { id: 'legacy@32000', turns: 3, compactions: 0 },
      { id: 'wide', turns: 3, compactions: 0 },
    ]);
  });

  it('refuses to share stdout with --json -', async () => {
    const r = await run(['replay', 'x.jsonl', '--ndjson', '--json', '-']);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('--ndjson writes to stdout');
  });
});

/**
 * Transcript figures (not a pass/fail test): generator speed for 1000 turns, and streaming load of a large
 * transcript (default ~100 MB; `--mb N` to change) with load time, throughput and peak RSS.
 * Run: node --import tsx bench/transcripts.bench.ts [--mb 100]
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { SessionEntry } from '../src/contract';
import { buildSessionContext, generateSession, readSessionFile, serializeSessionLine } from '../src/transcripts';

const mbArg = process.argv.indexOf('--mb');
const targetMb = mbArg > 0 ? Number(process.argv[mbArg + 1]) : 100;

function mb(bytes: number): string {
  return `${(bytes / (1 << 20)).toFixed(1)} MB`;
}

/** Copies of a generated branch, ids suffixed per copy, each copy hanging off the previous copy's last entry. */
function remapEntry(entry: SessionEntry, copy: number, previousLast: string | null): SessionEntry {
  const map = (id: string | null | undefined) => (typeof id === 'string' ? `${id}-${copy}` : id);
  const out = {
    ...entry,
    id: map(entry.id)!,
    parentId: entry.parentId === null ? previousLast : map(entry.parentId)!,
  } as Record<string, unknown>;
  for (const key of ['targetId', 'firstKeptEntryId', 'fromId', 'appendParentId'])
    if (key in out) out[key] = map(out[key] as string);
  return out as unknown as SessionEntry;
}

async function main(): Promise<void> {
  let t = performance.now();
  const set = generateSession({ turns: 1000, seed: 'bench' });
  const genMs = performance.now() - t;
  const base = set.sessions[0]!;
  console.log(`generate 1000 turns: ${genMs.toFixed(0)} ms (${set.stats.messages} messages, ${mb(set.stats.chars)})`);

  const dir = mkdtempSync(join(tmpdir(), 'cs-bench-'));
  const file = join(dir, 'large.jsonl');
  t = performance.now();
  const out = createWriteStream(file);
  out.write(serializeSessionLine(base.header));
  let written = 0;
  let previousLast: string | null = null;
  for (let copy = 0; written < targetMb * (1 << 20); copy++) {
    for (const entry of base.entries) {
      const line = serializeSessionLine(remapEntry(entry, copy, previousLast));
      written += Buffer.byteLength(line);
      if (!out.write(line)) await once(out, 'drain');
    }
    previousLast = `${base.entries.at(-1)!.id}-${copy}`;
  }
  out.end();
  await once(out, 'finish');
  const size = statSync(file).size;
  console.log(`wrote ${mb(size)} test transcript in ${(performance.now() - t).toFixed(0)} ms`);

  globalThis.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let peakRss = rssBefore;
  let progressEvents = 0;
  t = performance.now();
  const session = await readSessionFile(file, {
    mode: 'strict',
    onProgress: () => {
      progressEvents += 1;
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    },
  });
  const loadMs = performance.now() - t;
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  console.log(
    `load (strict, streamed): ${loadMs.toFixed(0)} ms, ${(size / (1 << 20) / (loadMs / 1000)).toFixed(0)} MB/s, ` +
      `${session.entries.length} entries, ${progressEvents} progress events`,
  );
  console.log(`RSS: ${mb(rssBefore)} before, peak ${mb(peakRss)} (+${mb(peakRss - rssBefore)} for a ${mb(size)} file)`);
  t = performance.now();
  const context = buildSessionContext(session);
  console.log(
    `buildSessionContext: ${(performance.now() - t).toFixed(0)} ms, ${context.messages.length} messages in context`,
  );
  rmSync(dir, { recursive: true, force: true });
}

await main();

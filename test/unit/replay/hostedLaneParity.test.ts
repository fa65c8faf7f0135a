/**
 * A plugin in its engine host assembles what the same plugin does in process: summary-tree over a generated session
 * at a window where it summarizes (through `runtimeContext.llm.complete`, which the engine host answers with its own
 * copy of the offline summarizer: hostProvidedFunctions.ts), turn by turn the same messages, summaries included.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replaySession, type Recording, type ReplayLaneConfig } from '../../../src/replay';
import { generateSession, writeGeneratedSessions } from '../../../src/transcripts';
import { summaryTreeInProcess } from '../../../bench/replayBenchSupport';

const dir = mkdtempSync(join(tmpdir(), 'cs-hosted-parity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Per turn: the status and the assembled messages as role and text (keys are this recording's own). */
function assembledTexts(recording: Recording) {
  const lane = recording.lanes[0]!.id;
  return recording.turns[lane]!.map((turn) => ({
    turn: turn.turn,
    status: turn.status,
    engine: turn.engine.engineId,
    provenance: turn.assembled.map((ref) => ref.provenance),
    messages: turn.assembled.map((ref) => {
      const record = recording.messages[ref.key]!;
      return `${record.role}: ${JSON.stringify((record.message as { content?: unknown }).content)}`;
    }),
  }));
}

describe('summary-tree in its engine host and in process', () => {
  it('assembles the same messages every turn, the summaries written through llm.complete included', async () => {
    const set = generateSession({ turns: 40, seed: 'parity', subagents: 0 });
    const file = (await writeGeneratedSessions(set, join(dir, 'sessions'))).files[0]!;
    const replay = async (engine: ReplayLaneConfig['engine']) =>
      replaySession({
        session: file,
        lanes: [{ engine, contextWindow: 12_000, label: 'summary-tree' }],
        plugins: { allowExecute: true },
      });
    const hosted = await replay({ kind: 'plugin', plugin: resolve('resources/plugins/summary-tree') });
    const inProcess = await replay(await summaryTreeInProcess(mkdtempSync(join(dir, 'state-'))));
    expect(hosted.lanes[0]!.error).toBeUndefined();
    const a = assembledTexts(hosted);
    const b = assembledTexts(inProcess);
    expect(a).toHaveLength(40);
    // the case is one where the engine summarized: its summaries are in the assembled context
    const summarized = a.filter((t) =>
      t.messages.some((m) => /\[summary-tree L\d+ #\d+ covers msgs .*## Goal/.test(m)),
    );
    expect(summarized.length).toBeGreaterThan(5);
    expect(a.every((t) => t.engine === 'summary-tree' && t.status === b[t.turn]!.status)).toBe(true);
    expect(a).toEqual(b);
  }, 120_000);
});

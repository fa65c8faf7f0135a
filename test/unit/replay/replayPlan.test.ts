/**
 * One replay plan for every front end (src/replay/plan): the settings resolved once from the state dir's
 * openclaw.json and the release, each with its source; the lanes built on them, typed (CLI syntax) or as data; the
 * progress total over the active branch. The CLI, the bridge's replay service and a batch row replay the same plan.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LaneRequest } from '../../../src/bridge';
import {
  buildReplayPlan,
  createReplayService,
  importRecording,
  LaneSpecError,
  laneOfRequest,
  parseLaneSpec,
  printLaneSpec,
  type Recording,
} from '../../../src/replay';
import { runBatchJob } from '../../../src/replay/batch';
import { runCli } from './runCli';
import { SessionBuilder, tempDir } from './sessionBuilder';

const CONFIG = `{
  meta: { lastTouchedVersion: '2026.7.35' },
  agents: { defaults: { compaction: { reserveTokens: 24000, keepRecentTokens: 8000, reserveTokensFloor: 12000 } } },
}
`;

/** A state dir with openclaw.json and sess-1: "one", an abandoned branch, then "two" continuing from "one". */
async function stateDirWithBranchedSession() {
  const stateDir = tempDir('cs-plan-');
  writeFileSync(join(stateDir, 'openclaw.json'), CONFIG);
  const b = new SessionBuilder().turn('one');
  const forkPoint = b.entries[b.entries.length - 1]!.id;
  b.turn('abandoned').turn('two');
  const two = b.entries.find((e) => e.type === 'message' && e.message.role === 'user' && e.message.content === 'two')!;
  (two as { parentId: string | null }).parentId = forkPoint;
  const session = await b.write(join(stateDir, 'agents', 'main', 'sessions'));
  return { stateDir, session, file: session.path };
}

const NO_PLUGINS = { allowExecute: false };

describe('the replay plan: settings and where each came from', () => {
  it('a flag wins; what the request leaves out comes from openclaw.json, else the release', async () => {
    const { session } = await stateDirWithBranchedSession();
    const plan = await buildReplayPlan(session, { lanes: ['legacy'], window: 32_000 }, NO_PLUGINS);
    expect(plan.settings.sources).toMatchObject({
      contextWindow: 'flag',
      reserveTokens: 'openclaw.json',
      keepRecentTokens: 'openclaw.json',
      reserveTokensFloor: 'openclaw.json',
      compactionMode: 'version default',
      openclawVersion: 'inferred',
    });
    expect(plan.lanes).toEqual([
      expect.objectContaining({
        spec: 'legacy',
        contextWindow: 32_000,
        reserveTokens: 24_000,
        keepRecentTokens: 8000,
        reserveTokensFloor: 12_000,
        compactionEnabled: true,
      }),
    ]);
    expect(plan.options.settingSources).toMatchObject({ contextWindow: 'flag', configPath: expect.any(String) });
    expect(plan.options.openclawVersionChoice).toMatchObject({ version: '2026.7.35', how: 'inferred' });
  });

  it("a value the request only repeats (the app's form sends back its defaults) keeps the source it came from", async () => {
    const { session } = await stateDirWithBranchedSession();
    const plan = await buildReplayPlan(
      session,
      { lanes: ['legacy'], window: 200_000, keepRecentTokens: 8000, reserve: 30_000, openclawVersion: '2026.7.35' },
      NO_PLUGINS,
    );
    expect(plan.settings.sources).toMatchObject({
      contextWindow: 'version default',
      keepRecentTokens: 'openclaw.json',
      reserveTokens: 'flag',
      openclawVersion: 'inferred',
    });
  });

  it("a lane's own window= and reserve= win over the plan's", async () => {
    const { session } = await stateDirWithBranchedSession();
    const plan = await buildReplayPlan(
      session,
      { lanes: ['legacy?window=16000', { kind: 'legacy', reserve: 4000, label: 'small' }] },
      NO_PLUGINS,
    );
    expect(plan.lanes.map((l) => [l.label, l.contextWindow, l.reserveTokens])).toEqual([
      ['legacy@16000', 16_000, 24_000],
      ['small', 200_000, 4000],
    ]);
  });
});

describe('the replay plan: progress', () => {
  it('plans root lanes × turns of the active branch, not every user message of the file', async () => {
    const { session } = await stateDirWithBranchedSession();
    const userMessages = session.entries.filter((e) => e.type === 'message' && e.message.role === 'user').length;
    const plan = await buildReplayPlan(session, { lanes: ['legacy', 'legacy?label=b'] }, NO_PLUGINS);
    expect(userMessages).toBe(3);
    expect(plan.total).toBe(4);
  });
});

// structured lanes with the characters a spec must escape in every text field
const awkward = fc.string({ unit: fc.constantFrom('a', '/', ' ', '%', '?', '&', '#', '=', ',', 'é', '\t', '2', '0') });
const nonEmpty = awkward.filter((s) => s.length > 0);
const common = {
  window: fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: undefined }),
  reserve: fc.option(fc.integer({ min: 0, max: 200_000 }), { nil: undefined }),
  host: fc.option(
    fc.oneof(
      fc.constantFrom('embedded', 'codex'),
      nonEmpty.filter((s) => s.trim() === s && s !== '').map((id) => `cli:${id}`),
    ),
    { nil: undefined },
  ),
  label: fc.option(nonEmpty, { nil: undefined }),
};
const laneArbitrary: fc.Arbitrary<LaneRequest> = fc.oneof(
  fc.record({ kind: fc.constant('legacy' as const), ...common }, { requiredKeys: ['kind'] }),
  fc.record(
    {
      kind: fc.constant('plugin' as const),
      plugin: nonEmpty.filter((s) => s.trim() === s),
      configFile: fc.option(nonEmpty, { nil: undefined }),
      engineId: fc.option(nonEmpty, { nil: undefined }),
      timeoutMs: fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: undefined }),
      maxResultBytes: fc.option(fc.integer({ min: 1, max: 1 << 30 }), { nil: undefined }),
      allow: fc.option(
        fc.constantFrom({ childProcess: true }, { worker: true }, { childProcess: true, worker: true }),
        {
          nil: undefined,
        },
      ),
      ...common,
    },
    { requiredKeys: ['kind', 'plugin'] },
  ),
);

/** The lane without the keys fast-check left undefined. */
const defined = (lane: object) => Object.fromEntries(Object.entries(lane).filter(([, v]) => v !== undefined));

describe('lane specs: one printer, one parser', () => {
  it('prints any lane so that parsing gives it back, special characters in paths and labels included', () => {
    fc.assert(
      fc.property(laneArbitrary, (lane) => {
        const printed = printLaneSpec(lane);
        expect(printed).not.toMatch(/\s/); // one word: typed into the app's field or a shell as it is
        const { spec, ...parsed } = parseLaneSpec(printed);
        expect(spec).toBe(printed);
        expect(parsed).toEqual(defined(lane));
      }),
      { examples: [[{ kind: 'plugin', plugin: '/tmp/a&b?c#d%20e f', label: 'saved config', engineId: 'x=y' }]] },
    );
  });

  it('reads a path written by hand with its escapes, and prints a plain one as a person would write it', () => {
    expect(parseLaneSpec('plugin:/opt/a%26b%3Fc?engine=tree')).toMatchObject({
      plugin: '/opt/a&b?c',
      engineId: 'tree',
    });
    expect(printLaneSpec({ kind: 'plugin', plugin: '/opt/plugins/tree', engineId: 'tree-v2', window: 64_000 })).toBe(
      'plugin:/opt/plugins/tree?engine=tree-v2&window=64000',
    );
    expect(printLaneSpec({ kind: 'legacy' })).toBe('legacy');
  });

  it('checks a lane given as data by the rules of a typed one, naming the lane', () => {
    expect(laneOfRequest({ kind: 'plugin', plugin: '/p', allow: { worker: true } })).toMatchObject({
      spec: 'plugin:/p?allow=worker',
      allow: { worker: true },
    });
    expect(() => laneOfRequest({ kind: 'legacy', host: 'mainframe' })).toThrow(LaneSpecError);
    expect(() => laneOfRequest({ kind: 'legacy', host: 'mainframe' })).toThrow(
      'Invalid host in lane spec "legacy?host=mainframe" "mainframe": use embedded, codex, cli:<backendId> or agent-harness:<id>.',
    );
  });
});

describe('one plan for the CLI, the replay service and a batch', () => {
  it('replays a session with the same lanes, settings and sources whichever front end asked', async () => {
    const { stateDir, file } = await stateDirWithBranchedSession();
    const lanes = (rec: Recording) =>
      rec.lanes.map((l) => [l.id, l.contextWindow, l.keepRecentTokens, l.reserveTokens]);

    const cliOut = join(tempDir('cs-plan-cli-'), 'cli.json');
    const cli = await runCli(['replay', file, '--window', '32000', '--json', cliOut]);
    expect(cli.err).toBe('');
    const fromCli = importRecording(readFileSync(cliOut, 'utf8'));

    const service = createReplayService();
    const { replayId } = await service.start({ sessionPath: file, lanes: ['legacy'], window: 32_000 });
    const fromService = (await service.wait(replayId)).recording!;

    const batchOut = join(tempDir('cs-plan-batch-'), 'row.json');
    const job = { index: 0, sessionId: 'sess-1', agentId: 'main', storage: 'jsonl' as const, file };
    const row = await runBatchJob({ ...job, recordingFile: batchOut }, { stateDir, lanes: ['legacy'], window: 32_000 });
    expect(row.error).toBeUndefined();
    const fromBatch = importRecording(readFileSync(batchOut, 'utf8'));

    expect(lanes(fromCli)).toEqual([['legacy', 32_000, 8000, 24_000]]);
    expect(lanes(fromService)).toEqual(lanes(fromCli));
    expect(lanes(fromBatch)).toEqual(lanes(fromCli));
    expect(fromService.options.settingSources).toEqual(fromCli.options.settingSources);
    expect(fromBatch.options.settingSources).toEqual(fromCli.options.settingSources);
    expect(fromService.options.openclawVersionChoice).toEqual(fromCli.options.openclawVersionChoice);
    expect(fromBatch.options.openclawVersionChoice).toEqual(fromCli.options.openclawVersionChoice);
  }, 60_000);
});

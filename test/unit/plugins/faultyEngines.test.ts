/**
 * The bundled faulty-engines sample through the doctor: every engine's expected report (from the sample's own
 * catalogue, lib/faults.js FAULTS[i].expect) must appear with the right operation and reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDoctor } from '../../../src/plugins/doctor/runDoctor';
import type { DoctorReport } from '../../../src/plugins/doctor/reportTypes';

const PLUGIN = join(import.meta.dirname, '../../../resources/plugins/faulty-engines');
const { FAULTS } = createRequire(import.meta.url)(join(PLUGIN, 'lib/faults.js')) as {
  FAULTS: { id: string; expect: { kind: string; operation: string; reason: string } }[];
};
/** assemble is where the hang and the sync loop are; other calls get a generous deadline */
const DEADLINE_MS = 1500;

/** finding code per engine for the "finding" kind */
const FINDING_CODE: Record<string, string[]> = {
  'faulty-malformed-result': ['invalid-assemble-result'],
  'faulty-noop-compact': ['noop-compact'],
  'faulty-orphan-tool-calls': ['orphaned-tool-calls'],
  'faulty-estimate-drift': ['estimate-drift'],
  'faulty-assistant-first': ['assistant-first'],
  'faulty-compact-no-effect': ['compact-no-effect'],
  'faulty-void-results': ['lifecycle-void-result', 'lifecycle-void-result'],
};
/** needs two assembles of a longer session; the doctor drives one turn */
const NOT_DETECTED_BY_DOCTOR = ['faulty-nondeterministic'];

let report: DoctorReport;
const findingsFor = (engineId: string) => report.findings.filter((f) => f.where.engineId === engineId);

beforeAll(async () => {
  report = await runDoctor({
    allowExecute: true,
    pluginPaths: [PLUGIN],
    bundledDir: false,
    stateDir: mkdtempSync(join(tmpdir(), 'cs-doctor-state-')),
    deadlines: { defaultMs: 10_000, methods: { assemble: DEADLINE_MS } },
    unresponsiveGraceMs: 1000,
  });
}, 60_000);

describe('doctor on the faulty-engines sample', () => {
  it('executed the plugin in both registration modes', () => {
    expect(report.executed).toBe(true);
    expect(report.ok).toBe(false);
    const [plugin] = report.plugins;
    expect(plugin).toMatchObject({
      id: 'faulty-engines',
      status: 'executed',
      origin: 'linked',
      kind: ['context-engine'],
    });
    expect(plugin!.engines).toEqual(FAULTS.filter((f) => f.id !== 'faulty-discovery-only').map((f) => f.id));
    expect(plugin!.discoveryEngines).toEqual(FAULTS.map((f) => f.id));
  });

  for (const fault of FAULTS) {
    const { kind, operation, reason } = fault.expect;
    if (kind === 'quarantine') {
      it(`${fault.id}: quarantined during ${operation} with "${reason}"`, () => {
        if (operation === 'compact') {
          // the doctor never calls compact through the runtime; its probe reports the failure instead
          expect(findingsFor(fault.id).map((f) => [f.code, f.where.operation])).toEqual([
            ['compact-probe-failed', 'compact'],
          ]);
          expect(findingsFor(fault.id)[0]!.message).toContain(reason);
          return;
        }
        expect(report.quarantines.filter((q) => q.engineId === fault.id).map((q) => [q.operation, q.reason])).toEqual([
          [operation, reason],
        ]);
        expect(findingsFor(fault.id).map((f) => [f.severity, f.code, f.message])).toEqual([
          ['error', 'engine-quarantined', `engine "${fault.id}" quarantined during ${operation}: ${reason}`],
        ]);
      });
    }
  }

  it('faulty-assemble-hangs: released by the deadline and quarantined as a timeout', () => {
    expect(
      report.quarantines.filter((q) => q.engineId === 'faulty-assemble-hangs').map((q) => [q.operation, q.reason]),
    ).toEqual([['assemble', `timeout after ${DEADLINE_MS} ms`]]);
  });

  it('faulty-sync-loop: timed out, then its host was killed', () => {
    expect(
      report.quarantines.filter((q) => q.engineId === 'faulty-sync-loop').map((q) => [q.operation, q.reason]),
    ).toEqual([['assemble', `timeout after ${DEADLINE_MS} ms`]]);
    expect(findingsFor('faulty-sync-loop').map((f) => f.message)).toContain(
      'the engine host stopped while driving "faulty-sync-loop": killed after timeout in assemble',
    );
  });

  it('faulty-process-exit: quarantined with "engine host exited with code 3"', () => {
    expect(
      report.quarantines.filter((q) => q.engineId === 'faulty-process-exit').map((q) => [q.operation, q.reason]),
    ).toEqual([['assemble', 'engine host exited with code 3']]);
  });

  it('reports each detectable finding-kind fault with its code and operation, and only that', () => {
    for (const fault of FAULTS.filter((f) => f.expect.kind === 'finding' && !NOT_DETECTED_BY_DOCTOR.includes(f.id))) {
      const found = findingsFor(fault.id);
      expect(
        found.map((f) => f.code),
        fault.id,
      ).toEqual(FINDING_CODE[fault.id]);
      expect(
        found.some((f) => f.where.operation === fault.expect.operation),
        fault.id,
      ).toBe(true);
    }
    expect(findingsFor('faulty-malformed-result')[0]!.message).toBe(
      `invalid AssembleResult: ${'messages is not an array, estimatedTokens is not a number'}`,
    );
    expect(findingsFor('faulty-noop-compact')[0]!.message).toBe(
      FAULTS.find((f) => f.id === 'faulty-noop-compact')!.expect.reason,
    );
  });

  it('faulty-strict-validator: no quarantine and no finding (the compat retry handles it)', () => {
    expect(findingsFor('faulty-strict-validator')).toEqual([]);
    expect(report.quarantines.some((q) => q.engineId === 'faulty-strict-validator')).toBe(false);
  });

  it("faulty-host-requirement: reported as unsupported on the embedded runner with OpenClaw's message", () => {
    const expected = FAULTS.find((f) => f.id === 'faulty-host-requirement')!.expect.reason;
    expect(findingsFor('faulty-host-requirement').map((f) => [f.code, f.message])).toEqual([
      ['host-unsupported', expected],
    ]);
  });

  it('faulty-discovery-only: registered only in discovery mode', () => {
    expect(findingsFor('faulty-discovery-only').map((f) => [f.severity, f.code])).toEqual([
      ['warn', 'engine-discovery-only'],
    ]);
  });
});

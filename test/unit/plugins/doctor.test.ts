import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { register as registerDoctor } from '../../../src/cli/commands/doctor';
import type { CliHost } from '../../../src/cli/cliHost';
import { denyAllConsent, noConsentMessage } from '../../../src/plugins/consent';
import { doctorDeadlines, runDoctor } from '../../../src/plugins/doctor/runDoctor';
import { formatDoctorProgress, type DoctorProgress } from '../../../src/plugins/doctor/doctorProgress';
import type { DoctorReport } from '../../../src/plugins/doctor/reportTypes';
import { formatDoctorReport } from '../../../src/plugins/doctor/formatDoctorReport';

const FIXTURES = join(import.meta.dirname, '../../fixtures/plugins');
const fixture = (name: string) => join(FIXTURES, name);
const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-doctor-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  process.exitCode = undefined;
});
const codes = (report: DoctorReport) =>
  report.findings.map((f) => `${f.severity} ${f.code}${f.where.engineId ? ` ${f.where.engineId}` : ''}`);

describe('doctor without executing plugin code', () => {
  it('reports manifest, config and stale-entry problems and lists unapproved plugins as not executed', async () => {
    const report = await runDoctor({
      pluginPaths: [fixture('loader-bad-manifest'), fixture('loader-schema'), fixture('loader-cjs')],
      bundledDir: false,
      stateDir: tempDir(),
      consent: denyAllConsent(),
      config: {
        plugins: {
          entries: { 'loader-schema': { config: { budgetShare: 3 } }, ghost: { enabled: true } },
          deny: ['phantom'],
        },
      },
    });
    expect(report.executed).toBe(false);
    expect(report.ok).toBe(false);
    expect(codes(report)).toEqual([
      'error manifest-invalid',
      'error manifest-invalid',
      'error config-invalid',
      'error config-invalid',
      'warn stale-config-entry',
      'warn stale-config-entry',
      'info not-executed',
    ]);
    expect(report.findings.filter((f) => f.code === 'config-invalid').map((f) => f.message)).toEqual([
      '/apiKey: is required',
      '/budgetShare: must be <= 1',
    ]);
    expect(report.findings.find((f) => f.code === 'stale-config-entry')!.message).toBe(
      'stale config entry ignored: plugins.entries.ghost names "ghost", but no plugin with that id was found',
    );
    expect(report.plugins.map((p) => [p.id, p.status])).toEqual([
      ['loader-bad-manifest', 'invalid'],
      ['loader-schema', 'invalid'],
      ['loader-cjs', 'not-executed'],
    ]);
    expect(report.plugins[2]!.statusMessage).toBe(noConsentMessage(fixture('loader-cjs')));
    expect(report.plugins[2]!.discoveryEngines).toBeNull();
    expect(report.summary).toEqual({ plugins: 3, errors: 4, warnings: 2, infos: 1 });
  });

  it('prints a grouped human report with severity markers and fixes', async () => {
    const report = await runDoctor({
      pluginPaths: [fixture('loader-bad-manifest')],
      bundledDir: false,
      stateDir: tempDir(),
      consent: denyAllConsent(),
    });
    const text = formatDoctorReport(report);
    expect(text).toContain('ContextScope doctor — 1 plugin, 2 errors, 0 warnings, 0 info');
    expect(text).toContain('  ✖ loader-bad-manifest  [linked]');
    expect(text).toContain('  loader-bad-manifest\n    ✖ error  /configSchema: is required\n');
    expect(text).toContain(
      '             fix: add "configSchema": {"type": "object", "additionalProperties": false, "properties": {}} (required even when the plugin takes no config)',
    );
    expect(text.trimEnd().endsWith('Result: 2 errors — see the fixes above')).toBe(true);
  });
});

describe('doctor with --allow-execute', () => {
  it('compares registration modes, checks the slot and reports engine faults from one driven turn', async () => {
    const report = await runDoctor({
      allowExecute: true,
      pluginPaths: [fixture('loader-modes')],
      bundledDir: false,
      stateDir: tempDir(),
      config: { plugins: { slots: { contextEngine: 'no-such-engine' } } },
      deadlines: { defaultMs: 5000 },
    });
    expect(report.plugins[0]).toMatchObject({
      id: 'loader-modes',
      status: 'executed',
      engines: ['loader-modes'],
      discoveryEngines: [],
      tools: ['modes_tool'],
    });
    // no slot finding: with --plugin the doctor only sees that plugin's engines, so the slot cannot be judged
    expect(codes(report)).toEqual([
      'warn assistant-first loader-modes',
      'warn estimate-drift loader-modes',
      'warn lifecycle-void-result loader-modes',
      'warn noop-compact loader-modes',
      'info engine-full-only loader-modes',
    ]);
  });

  it('reports a slot naming an engine no plugin registers', async () => {
    const report = await runDoctor({
      allowExecute: true,
      bundledDir: false,
      stateDir: tempDir(),
      config: { plugins: { load: { paths: [fixture('loader-cjs')] }, slots: { contextEngine: 'no-such-engine' } } },
      deadlines: { defaultMs: 5000 },
    });
    const slot = report.findings.find((f) => f.code === 'slot-unknown-engine')!;
    expect(slot.message).toBe(
      'plugins.slots.contextEngine names "no-such-engine", which no plugin registers; OpenClaw quarantines it (resolve: not registered) and runs legacy',
    );
    expect(slot.fix).toBe('set plugins.slots.contextEngine to one of: legacy, loader-cjs');
    expect(report.quarantines.map((q) => [q.engineId, q.operation, q.reason])).toEqual([
      ['no-such-engine', 'resolve', 'not registered'],
    ]);
    expect(report.findings.filter((f) => f.code === 'engine-quarantined')).toEqual([]);
  });
});

describe('doctor progress, plugin by plugin', () => {
  it('tells which plugin is loading, which engine is being driven, and each outcome as the report lists it', async () => {
    const steps: DoctorProgress[] = [];
    const report = await runDoctor({
      allowExecute: true,
      pluginPaths: [fixture('slow-engine'), fixture('loader-bad-manifest')],
      bundledDir: false,
      stateDir: tempDir(),
      // slow-engine's assemble takes 2 s: past this deadline it is quarantined
      deadlines: doctorDeadlines(300),
      onProgress: (step) => steps.push(step),
    });
    const order = report.plugins.map((p) => p.id);
    const n = (id: string) => order.indexOf(id) + 1;
    expect(
      steps.map(
        (s) =>
          `${s.phase} ${s.pluginId} ${s.plugin}/${s.plugins}${s.engine ? ` ${s.engine.id} ${s.engine.index}/${s.engine.count}` : ''}`,
      ),
    ).toEqual(
      // the invalid plugin is checked as soon as it is refused; the slow one is loaded, then checked once its
      // engine was driven
      order
        .flatMap((id) => [
          `loading ${id} ${n(id)}/2`,
          id === 'loader-bad-manifest' ? `checked ${id} ${n(id)}/2` : `loaded ${id} ${n(id)}/2`,
        ])
        .concat([
          `driving slow-engine ${n('slow-engine')}/2 slow-engine 1/1`,
          `checked slow-engine ${n('slow-engine')}/2`,
        ]),
    );
    expect(steps.filter((s) => s.phase === 'checked').map((s) => s.checked)).toEqual([1, 2]);
    // each outcome is what the final report says of that plugin, the quarantine it came to included
    for (const step of steps.filter((s) => s.phase === 'checked')) {
      const entry = report.plugins.find((p) => p.id === step.pluginId)!;
      const own = report.findings.filter((f) => f.where.pluginId === step.pluginId);
      const count = (severity: string) => own.filter((f) => f.severity === severity).length;
      expect(step.outcome).toEqual({
        status: entry.status,
        statusMessage: entry.statusMessage,
        engines: entry.engines.length,
        errors: count('error'),
        warnings: count('warn'),
        infos: count('info'),
      });
    }
    expect(report.findings.filter((f) => f.code === 'engine-quarantined').map((f) => f.message)).toEqual([
      'engine "slow-engine" quarantined during assemble: timeout after 300 ms',
    ]);
    expect(steps.at(-1)!.outcome).toMatchObject({ status: 'executed', errors: 1 });
  }, 60_000);

  it('prints one line per step, with the outcome and how many plugins are checked', () => {
    const base = { pluginId: 'faulty-engines', plugin: 2, plugins: 3, checked: 1 } as const;
    expect(formatDoctorProgress({ ...base, phase: 'loading' })).toBe('[2/3] faulty-engines: loading…');
    expect(
      formatDoctorProgress({ ...base, phase: 'driving', engine: { id: 'faulty-hang', index: 5, count: 24 } }),
    ).toBe('[2/3] faulty-engines: driving faulty-hang (engine 5 of 24)…');
    expect(
      formatDoctorProgress({
        ...base,
        phase: 'checked',
        checked: 2,
        outcome: {
          status: 'executed',
          statusMessage: 'executed; engines: a, b',
          engines: 2,
          errors: 3,
          warnings: 1,
          infos: 0,
        },
      }),
    ).toBe('[2/3] faulty-engines: executed — executed; engines: a, b — 3 errors, 1 warning, 0 info (2 of 3 checked)');
  });
});

describe('contextscope doctor (CLI)', () => {
  function run(args: string[]): Promise<{ out: string; err: string }> {
    const captured = { out: '', err: '' };
    const host = {
      out: (t: string) => void (captured.out += t),
      err: (t: string) => void (captured.err += t),
    } as unknown as CliHost;
    const program = new Command('contextscope').exitOverride();
    registerDoctor(program, host);
    return program.parseAsync(['node', 'contextscope', 'doctor', ...args]).then(() => captured);
  }

  it('prints the JSON report and exits 1 when there are errors', async () => {
    const state = tempDir();
    const configPath = join(state, 'openclaw.json');
    writeFileSync(configPath, '// JSON5\n{ plugins: { entries: { gone: { config: {} } } } }\n');
    const { out } = await run([
      '--json',
      '--plugin',
      fixture('loader-bad-manifest'),
      '--no-bundled',
      '--state-dir',
      state,
    ]);
    const report = JSON.parse(out) as DoctorReport;
    expect(process.exitCode).toBe(1);
    expect(report.version).toBe(1);
    expect(report.config.path).toBe(configPath);
    expect(report.plugins.map((p) => [p.id, p.status, p.origin])).toEqual([
      ['loader-bad-manifest', 'invalid', 'linked'],
    ]);
    expect(report.findings.map((f) => f.code)).toEqual(['manifest-invalid', 'manifest-invalid', 'stale-config-entry']);
  });

  it('prints each plugin on stderr as it is checked, the report on stdout', async () => {
    const state = tempDir();
    const { out, err } = await run(['--plugin', fixture('loader-bad-manifest'), '--no-bundled', '--state-dir', state]);
    expect(out).toMatch(/^ContextScope doctor — 1 plugin, 2 errors/);
    expect(err).toBe(
      '[1/1] loader-bad-manifest: loading…\n' +
        '[1/1] loader-bad-manifest: invalid — not executed: 2 problem(s) in the manifest, entries or config — 2 errors, 0 warnings, 0 info (1 of 1 checked)\n',
    );
  });

  it('exits 2 with a readable message when the config is not JSON5', async () => {
    const state = tempDir();
    writeFileSync(join(state, 'bad.json'), '{ plugins: ');
    const { out, err } = await run(['--config', join(state, 'bad.json'), '--no-bundled', '--state-dir', state]);
    expect(out).toBe('');
    expect(err).toMatch(
      new RegExp(
        `^${join(state, 'bad.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not valid JSON5: invalid end of input at 1:12\\. Fix the syntax at that position\\.\\n$`,
      ),
    );
    expect(process.exitCode).toBe(2);
  });
});

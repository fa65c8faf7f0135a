import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { register as registerDoctor } from '../../../src/cli/commands/doctor';
import type { CliHost } from '../../../src/cli/cliHost';
import { denyAllConsent, noConsentMessage } from '../../../src/plugins/consent';
import { runDoctor } from '../../../src/plugins/doctor/runDoctor';
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

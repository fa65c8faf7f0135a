/** The doctor's report: one entry per examined plugin, and the findings ordered by severity. */
import type { LoadedPlugin } from '../loadPlugin';
import { formatProblem, type DiscoveredPlugin } from '../types';
import type {
  DoctorFinding,
  DoctorPluginReport,
  DoctorPluginStatus,
  DoctorQuarantine,
  DoctorReport,
  FindingSeverity,
} from './reportTypes';
import { uniqueStrings } from './uniqueStrings';

const SEVERITY_ORDER: Record<FindingSeverity, number> = { error: 0, warn: 1, info: 2 };

/** A full load's outcome, taken right after loading (before the doctor closes the host). */
export interface LoadOutcome {
  status: LoadedPlugin['status'];
  statusMessage: string;
  registered: boolean;
}

function statusOf(loaded: LoadOutcome | undefined, plugin: DiscoveredPlugin): DoctorPluginStatus {
  if (!loaded) return plugin.errors.length + plugin.configErrors.length > 0 ? 'invalid' : 'not-executed';
  switch (loaded.status) {
    case 'running':
    case 'stopped':
    case 'closed':
      return loaded.registered ? 'executed' : 'load-failed';
    default:
      return loaded.status;
  }
}

function statusMessageOf(
  outcome: LoadOutcome | undefined,
  loaded: LoadedPlugin | undefined,
  errors: readonly string[],
): string {
  if (outcome?.status === 'not-executed' || outcome?.status === 'invalid' || outcome?.status === 'load-failed')
    return outcome.statusMessage;
  if (loaded) return `executed; engines: ${loaded.engineIds.join(', ') || 'none'}`;
  return errors.length > 0
    ? `not executed: ${errors.length} problem(s) in the manifest, entries or config`
    : 'not executed';
}

export function pluginReport(
  plugin: DiscoveredPlugin,
  loaded: LoadedPlugin | undefined,
  outcome: LoadOutcome | undefined,
  discoveryEngines: string[] | undefined,
): DoctorPluginReport {
  const regs = loaded?.registrations;
  const errors = [
    ...plugin.errors.map(formatProblem),
    ...plugin.configErrors.map(formatProblem),
    ...(loaded?.errors ?? []).filter((e) => e.code !== 'no-consent').map(formatProblem),
  ];
  return {
    id: plugin.id,
    ...(plugin.name !== undefined ? { name: plugin.name } : {}),
    path: plugin.rootDir,
    kind: plugin.kind,
    origin: plugin.origin,
    enabled: plugin.enabled,
    status: statusOf(outcome, plugin),
    statusMessage: statusMessageOf(outcome, loaded, errors),
    engines: loaded?.engineIds ?? [],
    discoveryEngines: discoveryEngines ?? null,
    tools: uniqueStrings((regs?.tools ?? []).map((t) => t.name)),
    commands: uniqueStrings((regs?.commands ?? []).map((c) => c.name)),
    hooks: uniqueStrings((regs?.hooks ?? []).map((h) => h.event)),
    errors,
  };
}

export interface ReportParts {
  findings: readonly DoctorFinding[];
  executed: boolean;
  plugins: DoctorPluginReport[];
  configPath: string | undefined;
  slot: string | null;
  quarantines: DoctorQuarantine[];
}

/** Errors first, then warnings, then infos, each in the order found; ok when there is no error. */
export function buildReport(parts: ReportParts): DoctorReport {
  const ordered = parts.findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => SEVERITY_ORDER[a.finding.severity] - SEVERITY_ORDER[b.finding.severity] || a.index - b.index)
    .map((x) => x.finding);
  const count = (severity: FindingSeverity) => ordered.filter((f) => f.severity === severity).length;
  return {
    version: 1,
    ok: count('error') === 0,
    executed: parts.executed,
    summary: { plugins: parts.plugins.length, errors: count('error'), warnings: count('warn'), infos: count('info') },
    config: { path: parts.configPath ?? null, contextEngineSlot: parts.slot },
    plugins: parts.plugins,
    findings: ordered,
    quarantines: parts.quarantines,
  };
}

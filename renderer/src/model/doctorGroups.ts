/** Doctor findings grouped by severity (errors, then warnings, then info), with where each one is. Pure. */
import type { DoctorFindingInfo, DoctorSeverity } from '../../../src/bridge';

export interface FindingGroup {
  severity: DoctorSeverity;
  title: string;
  findings: DoctorFindingInfo[];
}

const ORDER: readonly { severity: DoctorSeverity; title: string }[] = [
  { severity: 'error', title: 'Errors' },
  { severity: 'warn', title: 'Warnings' },
  { severity: 'info', title: 'Info' },
];

export function groupFindings(findings: readonly DoctorFindingInfo[]): FindingGroup[] {
  return ORDER.map(({ severity, title }) => ({
    severity,
    title,
    findings: findings.filter((f) => f.severity === severity),
  })).filter((group) => group.findings.length > 0);
}

/** "plugin recent-window · engine recent-window · assemble · /path/to/file" */
export function describeWhere(where: DoctorFindingInfo['where']): string {
  const parts: string[] = [];
  if (where.pluginId) parts.push(`plugin ${where.pluginId}`);
  if (where.engineId) parts.push(`engine ${where.engineId}`);
  if (where.operation) parts.push(where.operation);
  if (where.file) parts.push(where.file);
  return parts.join(' · ');
}

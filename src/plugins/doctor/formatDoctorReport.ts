/** The human-readable doctor output: plugins first, then findings grouped by plugin with severity markers. */
import type { DoctorFinding, DoctorReport, FindingSeverity } from './reportTypes';

const MARK: Record<FindingSeverity, string> = { error: '✖ error', warn: '⚠ warn ', info: 'ℹ info ' };
const STATUS_MARK: Record<string, string> = { executed: '✓', 'not-executed': '·', invalid: '✖', 'load-failed': '✖' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function groupKey(finding: DoctorFinding): string {
  return (
    finding.where.pluginId ??
    (finding.where.file?.startsWith('plugins.') ? 'openclaw.json' : (finding.where.engineId ?? 'general'))
  );
}

export function formatDoctorReport(report: DoctorReport): string {
  const { summary } = report;
  const lines: string[] = [];
  lines.push(
    `ContextScope doctor — ${plural(summary.plugins, 'plugin')}, ${plural(summary.errors, 'error')}, ${plural(summary.warnings, 'warning')}, ${summary.infos} info`,
  );
  if (report.config.path) lines.push(`config: ${report.config.path}`);
  lines.push(`context engine slot: ${report.config.contextEngineSlot ?? 'legacy (default)'}`);
  if (!report.executed)
    lines.push('plugin code was not executed (run with --allow-execute to load plugins and drive their engines)');
  lines.push('', 'Plugins');
  if (report.plugins.length === 0) lines.push('  (none found)');
  for (const p of report.plugins) {
    lines.push(
      `  ${STATUS_MARK[p.status] ?? '?'} ${p.id}  [${p.origin}${p.kind.length ? `, ${p.kind.join('+')}` : ''}${p.enabled ? '' : ', disabled'}]  ${p.path}`,
    );
    lines.push(`      ${p.statusMessage}`);
    const registered = [
      p.tools.length ? `tools: ${p.tools.join(', ')}` : '',
      p.commands.length ? `commands: ${p.commands.join(', ')}` : '',
      p.hooks.length ? `hooks: ${p.hooks.join(', ')}` : '',
    ].filter(Boolean);
    if (registered.length) lines.push(`      ${registered.join(' · ')}`);
  }
  lines.push('', 'Findings');
  if (report.findings.length === 0) lines.push('  none — everything checked is fine');
  const groups = new Map<string, DoctorFinding[]>();
  for (const finding of report.findings) {
    const key = groupKey(finding);
    groups.set(key, [...(groups.get(key) ?? []), finding]);
  }
  for (const [key, group] of groups) {
    lines.push(`  ${key}`);
    for (const f of group) {
      const where = [
        f.where.engineId && f.where.engineId !== key ? `engine ${f.where.engineId}` : '',
        f.where.operation ? `op ${f.where.operation}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      lines.push(`    ${MARK[f.severity]}  ${where ? `(${where}) ` : ''}${f.message}`);
      if (f.where.file && f.where.file !== key) lines.push(`             at ${f.where.file}`);
      lines.push(`             fix: ${f.fix}`);
    }
  }
  lines.push('', report.ok ? 'Result: no errors' : `Result: ${plural(summary.errors, 'error')} — see the fixes above`);
  return `${lines.join('\n')}\n`;
}

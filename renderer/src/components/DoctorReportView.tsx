import type { DoctorReportInfo } from '../../../src/bridge';
import { describeWhere, groupFindings, type FindingGroup } from '../model/doctorGroups';
import { Tag } from './Tag';
import './DoctorReportView.css';

const TONE = { error: 'bad', warn: 'warn', info: 'info' } as const;

function DoctorSummary({ report }: { report: DoctorReportInfo }) {
  return (
    <p className="doctor__summary" data-testid="doctor-summary">
      <Tag tone={report.ok ? 'ok' : 'bad'} text={report.ok ? 'ok' : 'problems found'} /> {report.summary.plugins}{' '}
      plugins · {report.summary.errors} errors · {report.summary.warnings} warnings · {report.summary.infos} info ·{' '}
      {report.executed ? 'plugin code was executed' : 'plugin code was not executed'}
      {report.config.path && (
        <>
          {' '}
          · config <span className="mono">{report.config.path}</span>
        </>
      )}
    </p>
  );
}

function FindingGroupCard({ group }: { group: FindingGroup }) {
  return (
    <section className="card doctor__group" aria-label={group.title} data-testid={`doctor-group-${group.severity}`}>
      <h2 className="card__title">
        {group.title} <span className="mono">{group.findings.length}</span>
      </h2>
      <ul className="doctor__findings">
        {group.findings.map((finding, i) => (
          <li key={i} className="doctor__finding">
            <div>
              <Tag tone={TONE[finding.severity]} text={finding.severity} /> <span className="mono">{finding.code}</span>{' '}
              <span className="doctor__where">{describeWhere(finding.where)}</span>
            </div>
            <div className="doctor__message">{finding.message}</div>
            <div className="doctor__fix">Fix: {finding.fix}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PluginStatusCard({ plugins }: { plugins: DoctorReportInfo['plugins'] }) {
  return (
    <section className="card">
      <h2 className="card__title">Plugins</h2>
      <div className="table-wrap">
        <table className="table" aria-label="Doctor plugin status">
          <thead>
            <tr>
              <th scope="col">Plugin</th>
              <th scope="col">Origin</th>
              <th scope="col">Status</th>
              <th scope="col">Engines</th>
              <th scope="col">Detail</th>
            </tr>
          </thead>
          <tbody>
            {plugins.map((plugin) => (
              <tr key={plugin.path}>
                <td className="mono nowrap">{plugin.id}</td>
                <td>{plugin.origin}</td>
                <td>
                  <Tag
                    tone={plugin.status === 'executed' ? 'ok' : plugin.status === 'not-executed' ? 'muted' : 'bad'}
                    text={plugin.status}
                  />
                </td>
                <td className="mono wrap">{plugin.engines.join(', ') || '—'}</td>
                <td className="wrap">{plugin.errors.length > 0 ? plugin.errors.join('; ') : plugin.statusMessage}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function QuarantinesCard({ quarantines }: { quarantines: DoctorReportInfo['quarantines'] }) {
  return (
    <section className="card">
      <h2 className="card__title">Quarantines</h2>
      <ul>
        {quarantines.map((q, i) => (
          <li key={i}>
            <span className="mono">{q.engineId}</span> in <span className="mono">{q.operation}</span>: {q.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The doctor report: totals, findings grouped by severity with where and fix, plugin statuses, quarantines. */
export function DoctorReportView({ report }: { report: DoctorReportInfo }) {
  const groups = groupFindings(report.findings);
  return (
    <div className="doctor" data-testid="doctor-report">
      <DoctorSummary report={report} />
      {groups.length === 0 && <p className="muted">No findings.</p>}
      {groups.map((group) => (
        <FindingGroupCard key={group.severity} group={group} />
      ))}
      <PluginStatusCard plugins={report.plugins} />
      {report.quarantines.length > 0 && <QuarantinesCard quarantines={report.quarantines} />}
    </div>
  );
}

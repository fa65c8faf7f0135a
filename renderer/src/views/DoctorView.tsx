import { useInspectorClient } from '../bridge/ClientContext';
import { DoctorProgress } from '../components/DoctorProgress';
import { DoctorReportView } from '../components/DoctorReportView';
import { Notice } from '../components/Notice';
import { DOCTOR_TIMEOUT_RANGE, parseDoctorTimeout, useDoctorStore } from '../store/doctorStore';
import { useWorkspaceStore } from '../store/workspaceStore';
import './DoctorView.css';

/** Runs `doctor.run` and shows the findings grouped by severity. */
export function DoctorView() {
  const client = useInspectorClient();
  const { report, running, error, allowExecute, setAllowExecute, run, plugins, current, cached } = useDoctorStore();
  const { timeoutText, setTimeoutText } = useDoctorStore();
  const timeout = parseDoctorTimeout(timeoutText);
  const stateDir = useWorkspaceStore((s) => s.info?.stateDir);
  return (
    <div className="view doctor-view">
      <h1 className="view__title">Doctor</h1>
      <p className="view__lede">
        Checks every plugin like <span className="mono">contextscope doctor</span>: manifests, config, stale entries,
        shadowed copies. Approved plugins (or all, with the box ticked) are loaded and each engine is driven through one
        turn and a compaction probe.
      </p>
      <div className="doctor-view__controls">
        <label className="checkbox">
          <input type="checkbox" checked={allowExecute} onChange={(event) => setAllowExecute(event.target.checked)} />
          Run every plugin&apos;s code for this check (not only approved ones)
        </label>
        <label className="doctor-view__timeout">
          Call deadline (ms){' '}
          <input
            type="number"
            className="input mono"
            min={DOCTOR_TIMEOUT_RANGE.min}
            max={DOCTOR_TIMEOUT_RANGE.max}
            step={100}
            value={timeoutText}
            aria-invalid={'problem' in timeout}
            title="How long each engine call in the smoke drive may take before the engine is quarantined (contextscope doctor --timeout); compact gets at least 30,000 ms"
            onChange={(event) => setTimeoutText(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button button--primary"
          disabled={!client || running || 'problem' in timeout}
          onClick={() => client && void run(client)}
        >
          {running ? 'Checking…' : report ? 'Run again' : 'Run doctor'}
        </button>
      </div>
      {'problem' in timeout && <Notice tone="error">{timeout.problem}</Notice>}
      {error && <Notice tone="error">The doctor could not run: {error}</Notice>}
      {stateDir && (
        <p className="muted">
          State dir <span className="mono path">{stateDir}</span>
        </p>
      )}
      {running && !current && <Notice tone="info">Starting the check…</Notice>}
      {cached && !running && (
        <Notice tone="info">No plugin, config or consent changed since the last check: its report.</Notice>
      )}
      <DoctorProgress plugins={plugins} current={current} running={running} />
      {report && <DoctorReportView report={report} />}
    </div>
  );
}

import { useInspectorClient } from '../bridge/ClientContext';
import { DoctorProgress } from '../components/DoctorProgress';
import { DoctorReportView } from '../components/DoctorReportView';
import { Notice } from '../components/Notice';
import { useDoctorStore } from '../store/doctorStore';
import { useWorkspaceStore } from '../store/workspaceStore';
import './DoctorView.css';

/** Runs `doctor.run` and shows the findings grouped by severity. */
export function DoctorView() {
  const client = useInspectorClient();
  const { report, running, error, allowExecute, setAllowExecute, run, steps, cached } = useDoctorStore();
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
        <button
          type="button"
          className="button button--primary"
          disabled={!client || running}
          onClick={() => client && void run(client)}
        >
          {running ? 'Checking…' : report ? 'Run again' : 'Run doctor'}
        </button>
      </div>
      {error && <Notice tone="error">The doctor could not run: {error}</Notice>}
      {stateDir && (
        <p className="muted">
          State dir <span className="mono path">{stateDir}</span>
        </p>
      )}
      {running && <Notice tone="info">Checking plugins… (executing plugins can take a few seconds each)</Notice>}
      {cached && !running && (
        <Notice tone="info">No plugin, config or consent changed since the last check: its report.</Notice>
      )}
      <DoctorProgress steps={steps} running={running} />
      {report && <DoctorReportView report={report} />}
    </div>
  );
}

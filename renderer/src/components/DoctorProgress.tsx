import type { DoctorProgressEvent } from '../../../src/bridge';
import type { DoctorPluginProgress } from '../store/doctorStore';
import { Tag } from './Tag';

export interface DoctorProgressProps {
  /** one row per plugin the runtime has told of, in its order */
  plugins: readonly DoctorPluginProgress[];
  /** the last step the runtime told: what the doctor is doing now */
  current: DoctorProgressEvent | null;
  running: boolean;
}

const STATUS_TONE = { executed: 'ok', 'not-executed': 'muted', invalid: 'bad', 'load-failed': 'bad' } as const;

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** What the doctor does now: the plugin (n of N) and, while its engines are driven, the engine (k of m). */
function doingNow(step: DoctorProgressEvent): string {
  const plugin = `plugin ${step.plugin} of ${step.plugins}, ${step.pluginId}`;
  if (step.phase === 'driving' && step.engine)
    return `Driving ${plugin}: engine ${step.engine.id} (${step.engine.index} of ${step.engine.count})`;
  if (step.phase === 'loading') return `Loading ${plugin}`;
  if (step.phase === 'loaded') return `Loaded ${plugin}`;
  return `Checked ${plugin}`;
}

function PluginRow({ row }: { row: DoctorPluginProgress }) {
  const { outcome, engine } = row;
  return (
    <li data-testid="doctor-step" data-phase={row.phase}>
      <span className="mono">{row.pluginId}</span>{' '}
      {outcome ? (
        <>
          <Tag tone={STATUS_TONE[outcome.status]} text={outcome.status} />{' '}
          <span className={outcome.errors > 0 ? 'doctor-progress__bad' : 'muted'}>
            {plural(outcome.errors, 'error')}, {plural(outcome.warnings, 'warning')}, {outcome.infos} info
          </span>
        </>
      ) : row.phase === 'driving' && engine ? (
        <span className="muted">
          driving {engine.id} ({engine.index} of {engine.count})…
        </span>
      ) : row.phase === 'loaded' ? (
        <span className="muted">loaded; engines driven once every plugin is loaded</span>
      ) : (
        <span className="muted">loading…</span>
      )}
    </li>
  );
}

/**
 * The doctor as it goes: what it is doing now (plugin n of N, engine k of m), how many plugins are checked, and
 * each plugin's outcome as soon as it is checked (status and findings by severity, as the report will list them).
 */
export function DoctorProgress({ plugins, current, running }: DoctorProgressProps) {
  if (!current) return null;
  const checked = current.checked;
  return (
    <section className="card" aria-label="Doctor progress" data-testid="doctor-progress">
      <h2 className="card__title" data-testid="doctor-progress-title">
        {running
          ? `${checked} of ${current.plugins} plugins checked`
          : `Checked ${checked} of ${current.plugins} plugins`}
      </h2>
      {running && (
        <p className="doctor-progress__now" data-testid="doctor-progress-now">
          {doingNow(current)}…
        </p>
      )}
      <ul className="doctor-progress__list">
        {plugins.map((row) => (
          <PluginRow key={row.pluginId} row={row} />
        ))}
      </ul>
    </section>
  );
}

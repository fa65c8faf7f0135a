import type { DoctorStep } from '../store/doctorStore';

export interface DoctorProgressProps {
  steps: readonly DoctorStep[];
  running: boolean;
}

const PHASE_TEXT: Record<string, string> = { loaded: 'loaded', driven: 'engines driven' };

/** Each plugin as the doctor finishes with it: loaded (manifest, entry, registration), then its engines driven. */
export function DoctorProgress({ steps, running }: DoctorProgressProps) {
  if (steps.length === 0) return null;
  const last = steps[steps.length - 1]!;
  return (
    <section className="card" aria-label="Doctor progress" data-testid="doctor-progress">
      <h2 className="card__title">
        {running ? 'Checking' : 'Checked'} · {last.phase === 'driven' ? 'driving' : 'loading'} {last.done}
        {last.total !== null ? ` of ${last.total}` : ''}
      </h2>
      <ul className="doctor-progress__list">
        {steps.map((step, i) => (
          <li key={i} data-testid="doctor-step">
            <span className="mono">{step.pluginId}</span>{' '}
            <span className="muted">{PHASE_TEXT[step.phase] ?? step.phase}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

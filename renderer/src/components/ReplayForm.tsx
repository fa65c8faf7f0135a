import type { LaneChoice } from '../model/laneChoices';
import type { ReplayFormState } from '../store/replayStore';
import { Tag } from './Tag';

export interface ReplayFormProps {
  sessionTitle: string | null;
  choices: readonly LaneChoice[];
  form: ReplayFormState;
  problem: string | null;
  running: boolean;
  onToggleLane(spec: string): void;
  onChange(patch: Partial<ReplayFormState>): void;
  onStart(): void;
}

function consentTag(choice: LaneChoice) {
  if (choice.unavailable) return <Tag tone="bad" text="invalid" title={choice.unavailable} />;
  if (!choice.plugin) return <Tag tone="muted" text="built-in" />;
  switch (choice.plugin.consent) {
    case 'granted':
      return <Tag tone="ok" text="approved" title={`You approved running ${choice.plugin.path}`} />;
    case 'stale-hash':
      return (
        <Tag
          tone="warn"
          text="changed since approval"
          title="The plugin's files changed after you approved it; it asks again before running."
        />
      );
    default:
      return <Tag tone="warn" text="needs approval" title="Plugin code runs only after you approve it." />;
  }
}

/** Lanes (legacy and every context-engine plugin), model window, reserve, keep-recent and host of a replay. */
export function ReplayForm({
  sessionTitle,
  choices,
  form,
  problem,
  running,
  onToggleLane,
  onChange,
  onStart,
}: ReplayFormProps) {
  return (
    <form
      className="card replay-form"
      aria-label="Replay settings"
      onSubmit={(event) => {
        event.preventDefault();
        onStart();
      }}
    >
      <h2 className="card__title">Replay</h2>
      <p className="replay-form__session">
        Session: <span className="mono">{sessionTitle ?? 'none chosen'}</span>
      </p>
      <fieldset className="replay-form__lanes">
        <legend>Lanes</legend>
        {choices.map((choice) => (
          <label key={choice.spec} className="lane-option" title={choice.description}>
            <input
              type="checkbox"
              checked={form.lanes.includes(choice.spec)}
              disabled={choice.unavailable !== null}
              onChange={() => onToggleLane(choice.spec)}
            />
            <span className="mono lane-option__label">{choice.label}</span>
            {consentTag(choice)}
          </label>
        ))}
      </fieldset>
      <div className="replay-form__fields">
        <label className="field">
          <span className="field__label">Context window (tokens)</span>
          <input
            className="input mono"
            inputMode="numeric"
            value={form.window}
            onChange={(e) => onChange({ window: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field__label">Reserve (tokens)</span>
          <input
            className="input mono"
            inputMode="numeric"
            placeholder="OpenClaw default"
            value={form.reserve}
            onChange={(e) => onChange({ reserve: e.target.value })}
          />
        </label>
        <label
          className="field"
          title="agents.defaults.compaction.keepRecentTokens. It must stay below window − reserve, or compaction cannot make the prompt fit (the replay then reports keep-recent-exceeds-budget)."
        >
          <span className="field__label">Keep recent (tokens)</span>
          <input
            className="input mono"
            inputMode="numeric"
            placeholder="OpenClaw default (20000)"
            value={form.keepRecentTokens}
            onChange={(e) => onChange({ keepRecentTokens: e.target.value })}
          />
        </label>
        <label className="field">
          <span className="field__label">Host</span>
          <input
            className="input mono"
            list="replay-hosts"
            value={form.host}
            onChange={(e) => onChange({ host: e.target.value })}
          />
          <datalist id="replay-hosts">
            <option value="embedded" />
            <option value="codex" />
          </datalist>
        </label>
        <label className="field field--wide">
          <span className="field__label">More lanes (lane specs, space-separated)</span>
          <input
            className="input mono"
            placeholder="legacy?window=64000  plugin:faulty-engines?engine=faulty-assemble-throws"
            value={form.extraSpecs}
            onChange={(e) => onChange({ extraSpecs: e.target.value })}
          />
        </label>
      </div>
      {problem && (
        <p className="form-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="replay-form__actions">
        <button type="submit" className="button button--primary" disabled={running || sessionTitle === null}>
          {running ? 'Replaying…' : 'Start replay'}
        </button>
      </div>
    </form>
  );
}

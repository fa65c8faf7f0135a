import type { ReactNode } from 'react';
import type { LaneChoice } from '../model/laneChoices';
import type { ReplayFormState } from '../store/replayStore';
import type { FieldSources } from '../store/sessionDefaults';
import { Tag } from './Tag';
import './ReplayForm.css';

export interface ReplayFormProps {
  sessionTitle: string | null;
  choices: readonly LaneChoice[];
  form: ReplayFormState;
  problem: string | null;
  running: boolean;
  /** why Start waits (the session list or the chosen session's defaults are still being read), or null */
  waitReason?: string | null;
  /** where the session's defaults came from, per field (null: ContextScope's own defaults) */
  sources?: FieldSources | null;
  /** why the session's defaults could not be read (the fields then hold ContextScope's own), or null */
  sourcesProblem?: string | null;
  /** why the chosen session cannot be replayed at all (the Sessions list's row says it too), or null */
  sessionProblem?: string | null;
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

const KEEP_RECENT_HINT =
  'agents.defaults.compaction.keepRecentTokens. It must stay below window − reserve, or compaction cannot make the prompt fit (the replay then reports keep-recent-exceeds-budget).';

interface FormFieldProps {
  label: string;
  value: string;
  onChange(value: string): void;
  placeholder?: string;
  numeric?: boolean;
  wide?: boolean;
  title?: string;
  list?: string;
  /** where the value came from (the session's defaults), shown under the field */
  source?: string;
  children?: ReactNode;
}

/** A labelled monospace text input of the form (`children` go after the input, e.g. its datalist). */
function FormField(props: FormFieldProps) {
  const { label, value, onChange, placeholder, numeric, wide, title, list, source, children } = props;
  return (
    <label className={wide ? 'field field--wide' : 'field'} title={title}>
      <span className="field__label">{label}</span>
      <input
        className="input mono"
        inputMode={numeric ? 'numeric' : undefined}
        list={list}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      {source && <span className="field__source">{source}</span>}
      {children}
    </label>
  );
}

interface LaneOptionsProps {
  choices: readonly LaneChoice[];
  lanes: readonly string[];
  configs: Record<string, string>;
  onToggle(spec: string): void;
  onConfig(spec: string, text: string): void;
}

function LaneOptions({ choices, lanes, configs, onToggle, onConfig }: LaneOptionsProps) {
  return (
    <fieldset className="replay-form__lanes">
      <legend>Lanes</legend>
      {choices.map((choice) => {
        const checked = lanes.includes(choice.key);
        return (
          <div key={choice.key}>
            <label className="lane-option" title={choice.description}>
              <input
                type="checkbox"
                checked={checked}
                disabled={choice.unavailable !== null}
                onChange={() => onToggle(choice.key)}
              />
              <span className="mono lane-option__label">{choice.label}</span>
              {consentTag(choice)}
            </label>
            {checked && choice.plugin && (
              <input
                className="input mono lane-option__config"
                aria-label={`Plugin config of ${choice.label} (JSON5)`}
                placeholder="plugin config as JSON5, e.g. { budgetShare: 0.5 } (empty: its defaults)"
                value={configs[choice.key] ?? ''}
                onChange={(e) => onConfig(choice.key, e.target.value)}
              />
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

interface ReplayFieldsProps {
  form: ReplayFormState;
  sources: FieldSources | null;
  onChange(patch: Partial<ReplayFormState>): void;
}

function ReplayFields({ form, sources, onChange }: ReplayFieldsProps) {
  return (
    <div className="replay-form__fields">
      <FormField
        label="Context window (tokens)"
        numeric
        source={sources?.window}
        value={form.window}
        onChange={(window) => onChange({ window })}
      />
      <FormField
        label="Reserve (tokens)"
        numeric
        source={sources?.reserve}
        placeholder="OpenClaw default"
        value={form.reserve}
        onChange={(reserve) => onChange({ reserve })}
      />
      <FormField
        label="Keep recent (tokens)"
        title={KEEP_RECENT_HINT}
        numeric
        source={sources?.keepRecentTokens}
        placeholder="OpenClaw default (20000)"
        value={form.keepRecentTokens}
        onChange={(keepRecentTokens) => onChange({ keepRecentTokens })}
      />
      <FormField label="Host" list="replay-hosts" value={form.host} onChange={(host) => onChange({ host })}>
        <datalist id="replay-hosts">
          <option value="embedded" />
          <option value="codex" />
        </datalist>
      </FormField>
      <FormField
        label="OpenClaw version"
        list="replay-openclaw-versions"
        source={sources?.openclawVersion}
        placeholder="2026.7.1"
        title="The release to replay as. From 2026.8 an engine without commitTurn and transcriptSemantics has every turn run on legacy."
        value={form.openclawVersion}
        onChange={(openclawVersion) => onChange({ openclawVersion })}
      >
        <datalist id="replay-openclaw-versions">
          <option value="2026.7.1" />
          <option value="2026.7.35" />
          <option value="2026.9.6" />
        </datalist>
      </FormField>
      <label
        className="field"
        title="Keep following the session while OpenClaw writes it: each new turn is replayed and shown as it arrives. Cancel stops."
      >
        <span className="field__label">Live</span>
        <span>
          <input type="checkbox" checked={form.follow} onChange={(e) => onChange({ follow: e.target.checked })} />{' '}
          follow the session
        </span>
      </label>
      <FormField
        label="More lanes (lane specs, space-separated)"
        wide
        placeholder="legacy?window=64000  plugin:faulty-engines?engine=faulty-assemble-throws"
        value={form.extraSpecs}
        onChange={(extraSpecs) => onChange({ extraSpecs })}
      />
    </div>
  );
}

/** Lanes (legacy and every context-engine plugin), model window, reserve, keep-recent and host of a replay. */
export function ReplayForm({
  sessionTitle,
  choices,
  form,
  problem,
  running,
  waitReason = null,
  sources,
  sourcesProblem = null,
  sessionProblem = null,
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
      {sessionProblem && (
        <p className="form-problem" role="alert" data-testid="replay-session-problem">
          This session cannot be replayed: {sessionProblem}
        </p>
      )}
      {sourcesProblem && !sessionProblem && (
        <p className="form-problem" role="alert" data-testid="replay-defaults-problem">
          Could not read this session’s settings, so the fields hold ContextScope’s own defaults: {sourcesProblem}
        </p>
      )}
      <LaneOptions
        choices={choices}
        lanes={form.lanes}
        configs={form.laneConfigs}
        onToggle={onToggleLane}
        onConfig={(spec, text) => onChange({ laneConfigs: { ...form.laneConfigs, [spec]: text } })}
      />
      <ReplayFields form={form} sources={sources ?? null} onChange={onChange} />
      {problem && (
        <p className="form-problem" role="alert">
          {problem}
        </p>
      )}
      <div className="replay-form__actions">
        <button
          type="submit"
          className="button button--primary"
          disabled={running || sessionTitle === null || waitReason !== null || sessionProblem !== null}
          title={waitReason ?? (sessionProblem ? 'This session cannot be replayed (see above).' : undefined)}
        >
          {running ? 'Replaying…' : 'Start replay'}
        </button>
        {waitReason && !running && <span className="muted replay-form__wait">{waitReason}</span>}
      </div>
    </form>
  );
}

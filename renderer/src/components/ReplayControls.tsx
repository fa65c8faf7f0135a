import type { TokenMeasure } from '../model/budgetSeries';
import type { SessionChoice } from '../model/recordingLanes';
import './ReplayControls.css';

export interface ReplayControlsProps {
  sessionChoices: readonly SessionChoice[];
  sessionId: string;
  onSelectSession(sessionId: string): void;
  measure: TokenMeasure;
  onSetMeasure(measure: TokenMeasure): void;
  /** the "only differing turns" filter is offered when more than one lane is shown */
  canFilterDiffering: boolean;
  onlyDiffering: boolean;
  differingCount: number;
  onSetOnlyDiffering(value: boolean): void;
}

const MEASURES: readonly { measure: TokenMeasure; label: string; title: string }[] = [
  {
    measure: 'precheck',
    label: 'Precheck',
    title: 'the precheck estimate of the whole prompt, which OpenClaw compares with the compaction threshold',
  },
  {
    measure: 'estimate',
    label: 'Estimate',
    title: "the assembled messages by OpenClaw's estimate, against assemble's token budget",
  },
  {
    measure: 'tiktoken',
    label: 'tiktoken',
    title: "the assembled messages by tiktoken, against assemble's token budget",
  },
];

function SessionSelect({
  choices,
  sessionId,
  onSelect,
}: {
  choices: readonly SessionChoice[];
  sessionId: string;
  onSelect(sessionId: string): void;
}) {
  return (
    <label className="field field--inline replay-view__session-pick">
      <span className="field__label">Session</span>
      <select className="input" value={sessionId} onChange={(event) => onSelect(event.target.value)}>
        {choices.map((choice) => (
          <option key={choice.sessionId} value={choice.sessionId}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function MeasureSwitch({ measure, onSet }: { measure: TokenMeasure; onSet(measure: TokenMeasure): void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Token count">
      {MEASURES.map((option) => (
        <button
          key={option.measure}
          type="button"
          role="radio"
          title={option.title}
          aria-checked={measure === option.measure}
          className={`segmented__option${measure === option.measure ? ' segmented__option--active' : ''}`}
          onClick={() => onSet(option.measure)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** Which session's lanes, which token count, the "lanes differ" filter, and the keys that move the selection. */
export function ReplayControls(props: ReplayControlsProps) {
  return (
    <div className="replay-view__controls">
      {props.sessionChoices.length > 1 && (
        <SessionSelect choices={props.sessionChoices} sessionId={props.sessionId} onSelect={props.onSelectSession} />
      )}
      <MeasureSwitch measure={props.measure} onSet={props.onSetMeasure} />
      {props.canFilterDiffering && (
        // the short words keep the controls and the search on one line at 1280 px; the name says it whole
        <label className="checkbox" title="Only turns where the lanes differ in what they assembled">
          <input
            type="checkbox"
            aria-label={`Only turns where lanes differ (${props.differingCount})`}
            checked={props.onlyDiffering}
            onChange={(event) => props.onSetOnlyDiffering(event.target.checked)}
          />
          Lanes differ ({props.differingCount})
        </label>
      )}
      <span className="muted keyboard-hint">
        <kbd>j</kbd>/<kbd>k</kbd> turn · <kbd>h</kbd>/<kbd>l</kbd> lane · <kbd>?</kbd> all keys
      </span>
    </div>
  );
}

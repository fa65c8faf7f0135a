import type { SlotChoice } from '../model/configSlots';

export interface ConfigSlotPickerProps {
  slot: string;
  label: string;
  /** what the draft selects */
  value: string;
  /** what the file says */
  saved: string;
  choices: readonly SlotChoice[];
  disabled?: boolean;
  onChange(value: string): void;
  onReset(): void;
}

/** plugins.slots.<slot>: a choice among the engines (or memory plugins) found, with each one's load status. */
export function ConfigSlotPicker({
  slot,
  label,
  value,
  saved,
  choices,
  disabled,
  onChange,
  onReset,
}: ConfigSlotPickerProps) {
  const selected = choices.find((c) => c.value === value);
  const changed = value !== saved;
  const id = `config-slot-${slot}`;
  return (
    <div className={`config-slot${changed ? ' config-slot--changed' : ''}`} data-testid={`slot-${slot}`}>
      <label htmlFor={id} className="config-slot__label">
        {label} <span className="mono muted">plugins.slots.{slot}</span>
      </label>
      <select
        id={id}
        className="input config-slot__select"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
      >
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label} — {choice.detail}
          </option>
        ))}
      </select>
      <div className="config-slot__status">
        {selected && (
          <span className={`config-slot__detail${selected.problem ? ' config-slot__detail--problem' : ''}`}>
            {selected.detail}
          </span>
        )}
        {changed && (
          <>
            <span className="config-form__changed">changed · saved: {saved}</span>
            <button
              type="button"
              className="button button--link"
              onClick={onReset}
              aria-label={`Reset ${label} to the saved value`}
            >
              Reset
            </button>
          </>
        )}
      </div>
    </div>
  );
}

import { THEME_CHOICES, type ThemeChoice } from '../theme';
import './ThemeToggle.css';

export interface ThemeToggleProps {
  choice: ThemeChoice;
  onChoose(choice: ThemeChoice): void;
}

const LABELS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Three-way switch: follow the system, or keep light / dark. */
export function ThemeToggle({ choice, onChoose }: ThemeToggleProps) {
  return (
    <div className="theme-toggle" role="radiogroup" aria-label="Theme" data-testid="theme-toggle">
      {THEME_CHOICES.map((option) => (
        <button
          key={option}
          type="button"
          role="radio"
          aria-checked={option === choice}
          className={`theme-toggle__option${option === choice ? ' theme-toggle__option--active' : ''}`}
          onClick={() => onChoose(option)}
        >
          {LABELS[option]}
        </button>
      ))}
    </div>
  );
}

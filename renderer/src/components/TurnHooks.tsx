import type { TurnRecord } from '../recordingTypes';
import { Tag } from './Tag';
import { TurnSection } from './TurnSection';

type PromptHooks = NonNullable<TurnRecord['promptHooks']>;

const PROMPT_EFFECTS: readonly [keyof PromptHooks, string][] = [
  ['systemPrompt', 'System prompt replaced by'],
  ['prependSystemContext', 'Before the system prompt'],
  ['appendSystemContext', 'After the system prompt'],
  ['prependContext', 'Before the prompt'],
  ['appendContext', 'After the prompt'],
];

/** The plugin hook points this turn ran (in order), what each returned, and what the prompt hooks applied. */
export function TurnHooks({ record }: { record: TurnRecord }) {
  const hooks = record.hooks ?? [];
  if (hooks.length === 0 && !record.promptHooks) return null;
  const effects = PROMPT_EFFECTS.filter(([field]) => record.promptHooks?.[field] !== undefined);
  return (
    <TurnSection title="Plugin hooks" count={hooks.length} testId="turn-hooks">
      <ul className="turn-hooks">
        {hooks.map((hook, i) => (
          <li key={i} data-testid="turn-hook" data-hook={hook.name}>
            <span className="mono">{hook.name}</span>
            {hook.attempt !== undefined && <span className="muted"> · attempt {hook.attempt + 1}</span>}
            <span className="muted">
              {' '}
              · {hook.handlers} handler{hook.handlers === 1 ? '' : 's'}
            </span>{' '}
            {hook.changed ? <Tag text="changed the turn" tone="warn" /> : <Tag text="no change" tone="muted" />}
            <div className="muted">{hook.summary}</div>
            {hook.errors?.map((error, j) => (
              <div key={j} className="turn-hooks__error">
                <Tag text="error" tone="bad" /> {error}
              </div>
            ))}
          </li>
        ))}
      </ul>
      {effects.map(([field, label]) => (
        <div key={field} data-testid="prompt-hook-effect" data-field={field}>
          <p className="muted">{label}:</p>
          <pre className="message-full">{record.promptHooks![field]}</pre>
        </div>
      ))}
    </TurnSection>
  );
}

import './Tag.css';

export interface TagProps {
  text: string;
  tone: 'bad' | 'warn' | 'info' | 'ok' | 'muted';
  title?: string;
  testId?: string;
}

/** A small coloured label (event badges, consent states, statuses). */
export function Tag({ text, tone, title, testId }: TagProps) {
  return (
    <span
      className={`tag tag--${tone}`}
      title={title}
      aria-label={title ? `${text}: ${title}` : undefined}
      data-testid={testId}
    >
      {text}
    </span>
  );
}

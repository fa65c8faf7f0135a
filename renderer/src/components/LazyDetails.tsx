import { useState, type ReactNode } from 'react';

export interface LazyDetailsProps {
  summary: ReactNode;
  children: ReactNode;
  className?: string;
  /** shown open whatever the user did (e.g. while a search narrows its content) */
  open?: boolean;
}

/** A <details> that renders its content only once opened (long message lists stay out of the DOM until asked for). */
export function LazyDetails({ summary, children, className, open: forced = false }: LazyDetailsProps) {
  const [open, setOpen] = useState(false);
  const shown = open || forced;
  return (
    <details className={className} open={shown} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {shown && children}
    </details>
  );
}

import { useState, type ReactNode } from 'react';

export interface LazyDetailsProps {
  summary: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A <details> that renders its content only once opened (long message lists stay out of the DOM until asked for). */
export function LazyDetails({ summary, children, className }: LazyDetailsProps) {
  const [open, setOpen] = useState(false);
  return (
    <details className={className} open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && children}
    </details>
  );
}

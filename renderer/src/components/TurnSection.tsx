import type { ReactNode } from 'react';
import './TurnSection.css';

export interface TurnSectionProps {
  title: string;
  count?: number;
  children: ReactNode;
  testId?: string;
}

/** A titled part of the TurnView, with the number of things it lists beside the title. */
export function TurnSection({ title, count, children, testId }: TurnSectionProps) {
  return (
    <section className="turn-section" data-testid={testId}>
      <h3 className="turn-section__title">
        {title}
        {count !== undefined && <span className="turn-section__count mono">{count}</span>}
      </h3>
      {children}
    </section>
  );
}

import type { ReactNode } from 'react';
import './Fact.css';

/** One term and its value in a `.facts` list. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
